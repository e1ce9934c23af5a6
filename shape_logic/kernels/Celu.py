"""Celu: y = max(0, x) + min(0, alpha * (e^(x/alpha) - 1))."""
import numpy as np

from .families import UnaryFloat


class Celu(UnaryFloat):
    attrs = {"alpha": 1.0}

    def run(self, x, alpha):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        a = x.dtype.type(alpha)
        neg = a * np.expm1(np.minimum(x, 0) / a)
        return np.where(x > 0, x, neg).astype(x.dtype, copy=False)
