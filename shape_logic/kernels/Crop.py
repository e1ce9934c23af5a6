"""Crop: an [N, C, H, W] batch cropped by border [left, top, right, bottom], or to scale
[h, w] from (top, left) (onnx's dropped experimental operator; the checks are onnxruntime's,
measured)."""
import numpy as np

from .base import REQUIRED
from .families import UnaryFloat


class Crop(UnaryFloat):
    attrs = {"border": REQUIRED, "scale": None}

    def run(self, x, border, scale):
        if x.ndim != 4:
            raise self.fail(f"needs an [N, C, H, W] input, got rank {x.ndim}")
        ints = lambda v: all(isinstance(e, (int, np.integer)) and e >= 0  # noqa: E731
                             for e in v)
        if len(border) != 4 or not ints(border):
            raise self.fail(f"border needs 4 integers >= 0, got {border}")
        if scale is not None and (len(scale) != 2 or not ints(scale)):
            raise self.fail(f"scale needs 2 integers >= 0, got {scale}")
        left, top, right, bottom = border
        h, w = x.shape[2:]
        if scale is None:
            hh, ww = h - top - bottom, w - left - right
        else:
            hh, ww = scale
        if hh < 0 or ww < 0 or top + hh > h or left + ww > w:
            raise self.fail(f"border {border} (scale {scale}) crops more than [{h}, {w}]")
        return x[:, :, top:top + hh, left:left + ww].copy()
