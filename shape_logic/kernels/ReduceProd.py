"""ReduceProd: the product over `axes` (an input from opset 18); 1 over an empty axis."""
import numpy as np

from .families import Reduce


class ReduceProd(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.prod(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
