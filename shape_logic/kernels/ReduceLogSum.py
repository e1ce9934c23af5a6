"""ReduceLogSum: log of the sum over `axes` (an input from opset 18)."""
import numpy as np

from .families import Reduce


class ReduceLogSum(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.log(np.sum(x, axis=axes, keepdims=keepdims))
