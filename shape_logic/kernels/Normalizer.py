"""Normalizer (ai.onnx.ml 1): each row of X [N, C] (a 1-D X is one row) divided by its
maximum (MAX), the sum of its magnitudes (L1) or its Euclidean norm (L2, which keeps the
signs, as onnxruntime); a row whose divisor is 0 stays. Y is float, of X's shape
(rules/Normalizer.lp)."""
import numpy as np

from .base import Kernel
from .ml_scores import FEATURE_TYPES, text

NORMS = ("MAX", "L1", "L2")


class Normalizer(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"norm": "MAX"}
    n_inputs = (1, 1)

    def setup(self, norm):
        if text(norm) not in NORMS:
            raise self.fail(f"norm {text(norm)!r} is not one of MAX, L1, L2")

    def run(self, x, norm):
        if x.dtype not in FEATURE_TYPES or x.ndim not in (1, 2):
            raise self.fail(f"X must be [N, C] or [C] of float, double, int64 or int32, not "
                            f"{x.dtype} {list(x.shape)}")
        v = x.astype(np.float32)
        norm = text(norm)
        if norm == "MAX":
            d = v.max(axis=-1, keepdims=True, initial=-np.inf)
        elif norm == "L1":
            d = np.abs(v).sum(axis=-1, keepdims=True)
        else:
            d = np.sqrt((v * v).sum(axis=-1, keepdims=True))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(d != 0, v / d, v).astype(np.float32)
