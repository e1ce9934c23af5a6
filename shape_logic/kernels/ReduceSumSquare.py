"""ReduceSumSquare: the sum of x^2 over `axes` (an input from opset 18)."""
import numpy as np

from .families import Reduce


class ReduceSumSquare(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.sum(np.square(x), axis=axes, keepdims=keepdims)
