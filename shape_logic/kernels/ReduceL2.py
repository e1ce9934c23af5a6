"""ReduceL2: sqrt of the sum of x^2 over `axes` (an input from opset 18)."""
import numpy as np

from .families import Reduce


class ReduceL2(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.sqrt(np.sum(np.square(x), axis=axes, keepdims=keepdims))
