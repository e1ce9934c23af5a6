"""QLinearAveragePool (com.microsoft, QOperator quantization's): quantize(average_pool(
dequantize(x))), AveragePool's windows (no dilations) over x [N, C, D1, ..] or, with
channels_last, [N, D1, .., C] (8-bit integers, per-tensor parameters)."""
import numpy as np

from .AveragePool import AveragePool
from .QLinearAdd import dequantized, requantized
from .base import Kernel

POOL_ATTRS = {k: v for k, v in AveragePool.attrs.items() if k != "dilations"}


class QLinearAveragePool(Kernel):
    domains = ("com.microsoft",)
    attrs = {**POOL_ATTRS, "channels_last": 0}
    n_inputs = (4, 5)
    optional_inputs = frozenset({2})  # X's zero point (0), before Y's scale

    def setup(self, channels_last, **pool):
        self.pool = AveragePool(pool, opset=19)

    def run(self, x, x_scale, x_zero, y_scale, y_zero=None, *, channels_last, **pool):
        v = dequantized(self, x, x_scale, x_zero)
        if channels_last:
            if v.ndim < 3:
                raise self.fail(f"x of shape {list(x.shape)} has no spatial axes")
            v = np.moveaxis(v, -1, 1)
        (p,) = self.pool(v)
        if channels_last:
            p = np.moveaxis(p, 1, -1)
        return requantized(self, p, y_scale, y_zero, x.dtype)
