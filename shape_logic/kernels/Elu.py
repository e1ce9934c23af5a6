"""Elu: y = x for x > 0, alpha * (e^x - 1) otherwise."""
import numpy as np

from .families import UnaryFloat


class Elu(UnaryFloat):
    attrs = {"alpha": 1.0}

    def run(self, x, alpha):
        return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))).astype(x.dtype)
