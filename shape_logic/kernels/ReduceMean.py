"""ReduceMean: the mean over `axes` (an input from opset 18)."""
import numpy as np

from .families import Reduce


class ReduceMean(Reduce):
    def reduce(self, x, axes, keepdims):
        return np.mean(x, axis=axes, keepdims=keepdims)
