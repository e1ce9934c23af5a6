"""SkipLayerNormalization (com.microsoft): layer normalization over the last axis of
x + skip (+ bias), scaled by gamma and shifted by beta; outputs Y, mean, inv_std_var and
the sum (mean and inv_std_var keep the leading axes, with 1 last)."""
import numpy as np

from .base import Kernel


class SkipLayerNormalization(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-12}
    n_inputs = (3, 5)
    small_float_outputs = (0, 3)  # (mean and inv_std_var are float32 whatever X is)

    def run(self, x, skip, gamma, beta=None, bias=None, epsilon=1e-12):
        s = x + skip if bias is None else x + skip + bias
        mean = s.mean(axis=-1, keepdims=True)
        var = ((s - mean) ** 2).mean(axis=-1, keepdims=True)
        inv = 1 / np.sqrt(var + epsilon)
        y = (s - mean) * inv * gamma
        if beta is not None:
            y = y + beta
        return (y.astype(x.dtype), mean.astype(np.float32), inv.astype(np.float32),
                s.astype(x.dtype))
