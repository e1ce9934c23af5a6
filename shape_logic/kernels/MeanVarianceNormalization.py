"""MeanVarianceNormalization: (x - mean) / sqrt(variance) over `axes` (default
[0, 2, 3]); the variance is the population one, with 1e-9 added as ONNX does."""
import numpy as np

from .base import Kernel


class MeanVarianceNormalization(Kernel):
    attrs = {"axes": [0, 2, 3]}

    def run(self, x, axes):
        ax = tuple(self.axis(a, x.ndim) for a in axes)
        mean = x.mean(axis=ax, keepdims=True)
        var = np.mean(np.square(x), axis=ax, keepdims=True) - np.square(mean)
        return ((x - mean) / (np.sqrt(var) + 1e-9)).astype(x.dtype, copy=False)
