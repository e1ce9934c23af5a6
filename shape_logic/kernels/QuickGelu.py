"""QuickGelu (com.microsoft): y = x * sigmoid(alpha * x) (alpha 1.702 by default)."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel


class QuickGelu(Kernel):
    domains = ("com.microsoft",)
    attrs = {"alpha": 1.702}

    def run(self, x, *, alpha):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        return (x * sigmoid(x * np.asarray(alpha, x.dtype))).astype(x.dtype)
