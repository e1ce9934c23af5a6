"""InstanceNormalization: each (n, c) plane normalized over its spatial axes, then
y = scale[c] * normalized + B[c]."""
import numpy as np

from .base import Kernel


class InstanceNormalization(Kernel):
    attrs = {"epsilon": 1e-5}
    n_inputs = (3, 3)

    def run(self, x, scale, b, epsilon):
        if x.ndim < 3:
            raise self.fail(f"input must be [N, C, spatial...], got {list(x.shape)}")
        axes = tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        mean = x.mean(axis=axes, keepdims=True)
        var = x.var(axis=axes, keepdims=True)
        y = (x - mean) / np.sqrt(var + epsilon) * scale.reshape(shape) + b.reshape(shape)
        return y.astype(x.dtype, copy=False)
