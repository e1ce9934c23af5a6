"""Binarizer (ai.onnx.ml): 1 where an element is greater than `threshold`, else 0, in the
input's type (rules/Binarizer.lp)."""
import numpy as np

from .base import Kernel

_TYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.int64, np.int32))


class Binarizer(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"threshold": 0.0}
    n_inputs = (1, 1)

    def run(self, x, threshold):
        if x.dtype not in _TYPES:
            raise self.fail(f"X must be float, double, int64 or int32, not {x.dtype}")
        return (x > threshold).astype(x.dtype)
