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
        if sizes is not None and attrs.get("keep_aspect_ratio_policy", "stretch") == "stretch" \
                and np.any(np.asarray(sizes) < 1):
            # (onnxruntime's ScalesValidation rejects the scale of 0 a size of 0 makes, as
            # torch's interpolate does; rules/Resize.lp's nonempty says so)
            raise self.fail(f"sizes {np.asarray(sizes).tolist()}: each must be at least 1")
        if attrs["coordinate_transformation_mode"] == "tf_half_pixel_for_nn":
            return tf_half_pixel_nearest(self, x, scales, sizes, attrs)
        (y,) = Reference._run(None, x, roi, scales, sizes, **attrs)
        return y.astype(x.dtype)


# nearest_mode -> the input coordinate of a real one, as onnxruntime rounds it (a half to
# the floor, a half up - its std::round of a positive -, down, up)
NEAREST = {"round_prefer_floor": lambda v: np.where(v == np.floor(v) + 0.5, np.floor(v),
                                                    np.round(v)),
           "round_prefer_ceil": lambda v: np.floor(v + 0.5), "floor": np.floor,
           "ceil": np.ceil}


def tf_half_pixel_nearest(kernel, x, scales, sizes, attrs):
    """Nearest neighbours at TensorFlow's half-pixel coordinates (tf2onnx writes them for
    tf.image.resize's nearest mode; onnx's reference has no such mode): output i of an
    axis scaled by s reads input (i + 0.5) / s, rounded by nearest_mode and clamped to the
    axis, in float32 as onnxruntime's source computes it ((i + 0.5f) / scale, the scale of
    `sizes` output / input; an axis of its own size is copied). Where the exact coordinate
    is a tie (7 to 1: 3.5) onnxruntime's build may round the other way (it gives 4 for
    round_prefer_ceil, where the float32 quotient is 3.4999998)."""
    if attrs["mode"] != "nearest":
        raise kernel.fail(f"coordinate_transformation_mode 'tf_half_pixel_for_nn' is for "
                          f"mode 'nearest', not {attrs['mode']!r}")
    axes = list(range(x.ndim)) if attrs.get("axes") is None else attrs["axes"]
    values = np.asarray(scales if sizes is None else sizes).reshape(-1)
    for axis, v in zip(axes, values):
        d = x.shape[axis]
        out = int(v) if sizes is not None else int(np.floor(d * np.float32(v)))
        if out == d:  # (onnxruntime copies an axis of the same size)
            continue
        scale = np.float32(out) / np.float32(d) if sizes is not None else np.float32(v)
        where = (np.arange(out, dtype=np.float32) + np.float32(0.5)) / scale
        index = NEAREST[attrs["nearest_mode"]](where).astype(np.int64)
        x = np.take(x, np.clip(index, 0, d - 1), axis=axis)
    return x


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
