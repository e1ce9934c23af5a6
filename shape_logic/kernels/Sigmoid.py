"""Sigmoid: y = 1 / (1 + e^-x), computed without overflow for large |x|."""
import numpy as np

from .families import UnaryFloat


def sigmoid(x: np.ndarray) -> np.ndarray:
    # e^-|x| never overflows; for x < 0, 1/(1+e^-x) = e^x/(1+e^x)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


class Sigmoid(UnaryFloat):
    fn = staticmethod(sigmoid)
