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
            if attrs["mode"] == "nearest":
                return simple_nearest(self, x, scales)
        if scales is not None and np.asarray(scales).size == 0:
            scales = None
        if sizes is not None and np.asarray(sizes).size == 0:
            sizes = None
        if (scales is None) == (sizes is None):
            raise self.fail("give exactly one of scales and sizes")
        if attrs.get("axes") is not None:  # (the reference takes them non-negative)
            attrs["axes"] = [self.axis(a, x.ndim) for a in attrs["axes"]]
        n = x.ndim if attrs.get("axes") is None else len(attrs["axes"])
        for name, v in (("scales", scales), ("sizes", sizes)):  # (the reference ignores more)
            if v is not None and np.asarray(v).size != n:
                raise self.fail(f"{np.asarray(v).size} {name} for {n} axes")
        (y,) = Reference._run(None, x, roi, scales, sizes, **attrs)
        return y.astype(x.dtype)


def simple_nearest(kernel, x, scales):
    """Nearest neighbours before opset 11 (Resize 10, Upsample), as onnxruntime computes
    them: output i of an axis scaled by s reads input i / s truncated when s >= 1 and
    rounded up when s < 1 (its "simple" mode; later opsets round to the nearest), within
    the axis. Axis by axis: nearest neighbours are separable."""
    scales = np.asarray(scales, np.float64).reshape(-1)
    if scales.size != x.ndim:
        raise kernel.fail(f"{scales.size} scales for an input of rank {x.ndim}")
    if np.any(scales <= 0):
        raise kernel.fail(f"scales {scales.tolist()} must be positive")
    for axis, s in enumerate(scales):
        if s == 1:
            continue
        d = x.shape[axis]
        where = np.arange(int(np.floor(d * s))) / s
        index = np.floor(where) if s >= 1 else np.ceil(where)
        x = np.take(x, np.minimum(index.astype(np.int64), d - 1), axis=axis)
    return x
