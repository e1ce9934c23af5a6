"""Softsign: y = x / (1 + |x|)."""
import numpy as np

from .families import UnaryFloat


class Softsign(UnaryFloat):
    def run(self, x):
        return (x / (1 + np.abs(x))).astype(x.dtype)
