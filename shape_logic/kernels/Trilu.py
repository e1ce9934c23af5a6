"""Trilu: the upper (upper = 1) or lower triangle of the last two axes, from diagonal k
(the optional second input); onnxruntime's com.microsoft Trilu is the same."""
import numpy as np

from .base import Kernel


class Trilu(Kernel):
    attrs = {"upper": 1}
    n_inputs = (1, 2)
    domains = ("", "com.microsoft")

    def run(self, x, k_in=None, upper=1):
        if x.ndim < 2:
            raise self.fail(f"input must have rank >= 2, got {list(x.shape)}")
        k = int(self.scalar(k_in)) if k_in is not None else 0
        return np.triu(x, k) if upper else np.tril(x, k)
