"""Mish: y = x * tanh(softplus(x)) = x * tanh(ln(1 + e^x)), elementwise."""
import numpy as np

from .families import UnaryFloat


class Mish(UnaryFloat):
    def run(self, x):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        return (x * np.tanh(np.logaddexp(np.zeros((), x.dtype), x))).astype(x.dtype, copy=False)
