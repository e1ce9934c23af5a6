"""ReduceSum: the sum over `axes` (an input from opset 13)."""
import numpy as np

from .families import Reduce


class ReduceSum(Reduce):
    axes_input_since = 13

    def reduce(self, x, axes, keepdims):
        return np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
