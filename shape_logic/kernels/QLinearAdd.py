"""QLinearAdd (com.microsoft): c = quantize(dequantize(a) + dequantize(b)), a and b
broadcast; dequantize(x) = (x - zero_point) * scale, quantize rounds half to even, adds
C's zero point and saturates (8-bit integers, per-tensor scalar parameters)."""
import numpy as np

from .base import Kernel
from .families import check_broadcast
from .quant import quantize


def dequantized(kernel: Kernel, x, scale, zero) -> np.ndarray:
    for name, v in (("scale", scale), ("zero point", zero)):
        if v is not None and np.size(v) != 1:
            raise kernel.fail(f"a {name} of shape {list(np.shape(v))} is not per tensor")
    if x.dtype not in (np.int8, np.uint8) or zero is not None and zero.dtype != x.dtype:
        raise kernel.fail(f"needs 8-bit integer tensors of one type, got {x.dtype}")
    z = 0.0 if zero is None else np.float64(np.asarray(zero).reshape(()))
    return (x.astype(np.float64) - z) * np.float64(np.float32(np.asarray(scale).reshape(())))


def requantized(kernel: Kernel, v, scale, zero, dtype) -> np.ndarray:
    z = None if zero is None else np.asarray(zero).reshape(())
    return quantize(kernel, v / np.float64(np.float32(np.asarray(scale).reshape(()))), z, dtype)


class QLinearAdd(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (7, 8)
    optional_inputs = frozenset({2, 5})  # A's and B's zero points (0), before C's scale
    combine = staticmethod(np.add)

    def run(self, a, a_scale, a_zero, b, b_scale, b_zero, c_scale, c_zero=None):
        check_broadcast(self, a, b)
        if a.dtype != b.dtype:
            raise self.fail(f"a ({a.dtype}) and b ({b.dtype}) must be of one type")
        v = type(self).combine(dequantized(self, a, a_scale, a_zero),
                               dequantized(self, b, b_scale, b_zero))
        return requantized(self, v, c_scale, c_zero, a.dtype)
