"""HardSigmoid: y = max(0, min(1, alpha * x + beta))."""
import numpy as np

from .families import UnaryFloat


class HardSigmoid(UnaryFloat):
    attrs = {"alpha": 0.2, "beta": 0.5}

    def run(self, x, alpha, beta):
        return np.clip(x * x.dtype.type(alpha) + x.dtype.type(beta), 0, 1).astype(x.dtype)
