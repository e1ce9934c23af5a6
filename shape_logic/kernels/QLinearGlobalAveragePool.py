"""QLinearGlobalAveragePool (com.microsoft): the mean over the spatial axes of
dequantize(x), quantized; x [N, C, D1, ..] (channels_last 0) or [N, D1, .., C], 3-D or
more; y keeps N and C, 1 elsewhere."""

from .QLinearAdd import dequantized, requantized
from .base import Kernel


class QLinearGlobalAveragePool(Kernel):
    domains = ("com.microsoft",)
    attrs = {"channels_last": 0}
    n_inputs = (5, 5)

    def run(self, x, x_scale, x_zero, y_scale, y_zero, *, channels_last):
        if x.ndim < 3:
            raise self.fail(f"x of shape {list(x.shape)} has no spatial axes")
        spatial = tuple(range(1, x.ndim - 1)) if channels_last else tuple(range(2, x.ndim))
        v = dequantized(self, x, x_scale, x_zero).mean(axis=spatial, keepdims=True)
        return requantized(self, v, y_scale, y_zero, x.dtype)
