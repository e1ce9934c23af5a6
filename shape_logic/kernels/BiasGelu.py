"""BiasGelu (com.microsoft): gelu(a + b) with erf."""
import numpy as np

from .base import Kernel
from .Erf import erf


class BiasGelu(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (2, 2)

    def run(self, a, b):
        x = a + b
        return (0.5 * x * (1 + erf(x / np.sqrt(2).astype(x.dtype)))).astype(a.dtype)
