"""ReduceL1: the sum of |x| over `axes` (an input from opset 18)."""
import numpy as np

from .families import Reduce


class ReduceL1(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.sum(np.abs(x), axis=axes, keepdims=keepdims)
