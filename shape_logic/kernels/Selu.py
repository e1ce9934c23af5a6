"""Selu: y = gamma * x for x > 0, gamma * (alpha * e^x - alpha) otherwise."""
import numpy as np

from .families import UnaryFloat


class Selu(UnaryFloat):
    attrs = {"alpha": 1.67326319217681884765625, "gamma": 1.05070102214813232421875}

    def run(self, x, alpha, gamma):
        neg = alpha * np.expm1(np.minimum(x, 0))
        return (gamma * np.where(x > 0, x, neg)).astype(x.dtype)
