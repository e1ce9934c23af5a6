"""ReduceMax: the maximum over `axes` (an input from opset 18); the lowest value of the
dtype (-inf for floats) over an empty axis."""
import numpy as np

from .families import Reduce, lowest


class ReduceMax(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.max(x, axis=axes, keepdims=keepdims, initial=lowest(x.dtype))
