"""Swish: y = x * sigmoid(alpha * x)."""
import numpy as np

from .families import UnaryFloat


class Swish(UnaryFloat):
    attrs = {"alpha": 1.0}

    def run(self, x, alpha):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        # sigmoid(z) = e^(-logaddexp(0, -z)): no overflow for large |z|
        z = x * x.dtype.type(alpha)
        return (x * np.exp(-np.logaddexp(np.zeros((), x.dtype), -z))).astype(x.dtype, copy=False)
