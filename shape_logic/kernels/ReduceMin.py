"""ReduceMin: the minimum over `axes` (an input from opset 18); the highest value of the
dtype (inf for floats) over an empty axis."""
import numpy as np

from .families import Reduce, highest


class ReduceMin(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.min(x, axis=axes, keepdims=keepdims, initial=highest(x.dtype))
