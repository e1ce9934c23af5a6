"""Relu: y = max(x, 0)."""
import numpy as np

from .families import Unary


class Relu(Unary):
    def run(self, x):
        return np.maximum(x, np.zeros((), x.dtype))
