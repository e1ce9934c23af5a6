"""Resize (and opset 10's X, scales form): the output size from `sizes` or floor(dim *
scale); the interpolation itself (nearest / linear / cubic, every coordinate mode,
antialias) is onnx's reference implementation, which is exact but slow on large images."""
import numpy as np

from .base import Kernel


class Resize(Kernel):
    attrs = {"antialias": 0, "axes": None, "coordinate_transformation_mode": "half_pixel",
             "cubic_coeff_a": -0.75, "exclude_outside": 0, "extrapolation_value": 0.0,
             "keep_aspect_ratio_policy": "stretch", "mode": "nearest",
             "nearest_mode": "round_prefer_floor"}
    n_inputs = (1, 4)

    def run(self, x, roi=None, scales=None, sizes=None, **attrs):
        from onnx.reference.ops.op_resize import Resize as Reference

        if self.opset < 11:  # (X, scales)
            roi, scales, sizes = None, roi, None
            attrs["coordinate_transformation_mode"] = "asymmetric"
        if scales is not None and np.asarray(scales).size == 0:
            scales = None
        if sizes is not None and np.asarray(sizes).size == 0:
            sizes = None
        if (scales is None) == (sizes is None):
            raise self.fail("give exactly one of scales and sizes")
        (y,) = Reference._run(None, x, roi, scales, sizes, **attrs)
        return y.astype(x.dtype)
