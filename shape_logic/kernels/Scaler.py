"""Scaler (ai.onnx.ml 1): Y = (X - offset) * scale, in float, X's shape
(rules/Scaler.lp). offset and scale have one entry, or one per feature: X's axis 1 (axis
0 of a 1-D X). As onnxruntime computes it, element i of X (in row-major order) takes
entry i mod that count, which for X [N, C] is its column."""
import numpy as np

from .base import Kernel
from .ml_scores import FEATURE_TYPES


class Scaler(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"offset": None, "scale": None}
    n_inputs = (1, 1)

    def setup(self, offset, scale):
        if not scale or len(offset or []) != len(scale):
            raise self.fail("scale must be given, and offset of its length")
        self.offset = np.asarray(offset, np.float32)
        self.scale = np.asarray(scale, np.float32)

    def run(self, x, **_):
        if x.dtype not in FEATURE_TYPES or x.ndim == 0:
            raise self.fail(f"X must be float, double, int64 or int32 with an axis, not "
                            f"{x.dtype} {list(x.shape)}")
        c = x.shape[1] if x.ndim > 1 else x.shape[0]
        n = len(self.scale)
        if n not in (1, c):
            raise self.fail(f"offset and scale have {n} entries, not 1 or the {c} features")
        flat = x.reshape(-1).astype(np.float32)
        k = np.arange(flat.size) % n
        return ((flat - self.offset[k]) * self.scale[k]).astype(np.float32).reshape(x.shape)
