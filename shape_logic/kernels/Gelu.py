"""Gelu: x * Phi(x); approximate="tanh" uses 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))."""
import numpy as np

from .Erf import erf
from .families import UnaryFloat


class Gelu(UnaryFloat):
    domains = ("", "com.microsoft")
    attrs = {"approximate": "none"}

    def run(self, x, approximate):
        if approximate == "tanh":
            inner = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
            return (0.5 * x * (1 + np.tanh(inner))).astype(x.dtype)
        if approximate != "none":
            raise self.fail(f"approximate must be 'none' or 'tanh', not {approximate!r}")
        return (0.5 * x * (1 + erf(x / np.sqrt(2).astype(x.dtype)))).astype(x.dtype)
