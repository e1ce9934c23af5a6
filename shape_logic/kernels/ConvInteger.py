"""ConvInteger: Conv of 8-bit integer tensors less their zero points (x's per tensor, w's
per tensor or per output channel), accumulated exactly into int32. The products run as
Conv's kernel in float64, exact for these integers (sums far below 2^53)."""
import numpy as np

from .Conv import Conv
from .base import Kernel


class ConvInteger(Kernel):
    attrs = dict(Conv.attrs)
    n_inputs = (2, 4)

    def setup(self, **attrs):
        self.conv = Conv(attrs, opset=self.opset)

    def run(self, x, w, x_zero=None, w_zero=None, **attrs):
        check_8bit(self, x, w)
        xs = shifted(x, x_zero)
        ws = shifted(w, per_channel(self, w_zero, w.shape))
        (y,) = self.conv(xs, ws)
        return np.rint(y).astype(np.int32)


def check_8bit(kernel: Kernel, *arrays) -> None:
    for a in arrays:
        if a.dtype not in (np.int8, np.uint8):
            raise kernel.fail(f"needs 8-bit integer inputs, got {a.dtype}")


def shifted(a: np.ndarray, zero) -> np.ndarray:
    """a - zero in float64 (zero: None, or broadcastable to a)."""
    out = a.astype(np.float64)
    return out if zero is None else out - np.asarray(zero, np.float64)


def per_channel(kernel: Kernel, v, w_shape: tuple):
    """A scale or zero point of w's, per tensor (one element) or per output channel (a
    vector of w's first axis), laid out against w [M, C, k1..]."""
    if v is None:
        return None
    v = np.asarray(v)
    if v.size == 1:
        return v.reshape(())
    if v.ndim != 1 or v.shape[0] != w_shape[0]:
        raise kernel.fail(f"a weight scale or zero point of shape {list(v.shape)} is neither "
                          f"per tensor nor per output channel ({w_shape[0]})")
    return v.reshape((-1,) + (1,) * (len(w_shape) - 1))
