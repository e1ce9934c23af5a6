"""FastGelu (com.microsoft): the tanh approximation of gelu(x + bias)."""
import numpy as np

from .base import Kernel


class FastGelu(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (1, 2)

    def run(self, x, bias=None):
        v = x if bias is None else x + bias
        inner = np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)
        return (0.5 * v * (1 + np.tanh(inner))).astype(x.dtype)
