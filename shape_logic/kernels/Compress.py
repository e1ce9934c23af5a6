"""Compress: the slices of x along `axis` where the bool condition is true (a shorter
condition keeps only its length, a longer one is cut to the axis as onnxruntime cuts it);
without axis, x is flattened first."""
import numpy as np

from .base import Kernel


class Compress(Kernel):
    attrs = {"axis": None}
    n_inputs = (2, 2)

    def run(self, x, cond, axis=None):
        ax = None if axis is None else self.axis(axis, x.ndim)
        n = x.size if ax is None else x.shape[ax]
        if cond.ndim != 1:
            raise self.fail(f"condition {list(cond.shape)} must be 1-D")
        return np.compress(cond[:n].astype(bool), x, axis=ax)
