"""LRN: local response normalization across channels,
y = x / (bias + alpha / size * sum of x^2 over channels c - (size-1)//2 .. c + size//2)^beta.

The squares are written once into a buffer with `size - 1` zero channels around them,
and the window sums are `size - 1` additions of its shifted channel ranges. The power
is NumPy's `**` only for an uncommon beta: for the usual ones (AlexNet's, GoogLeNet's
and ZFNet's 0.75) a few square roots give it at about a quarter of the cost ([1, 96,
109, 109]: `** 0.75` ~3.2 ms, sqrt(t) * sqrt(sqrt(t)) ~0.8), within an ulp or two.
The squares and sums are scratch buffers (scratch.py: no fresh pages each call).
"""
import numpy as np

from .base import REQUIRED, Kernel
from .scratch import scratch


def _three_quarters(t):
    """t ** 0.75 = sqrt(t) * sqrt(sqrt(t)) (t >= 0), in place."""
    np.sqrt(t, out=t)
    return np.multiply(t, np.sqrt(t), out=t)


# beta -> t ** beta (in place) for a t >= 0: square roots instead of `**`
POWERS = {
    0.5: lambda t: np.sqrt(t, out=t),
    0.75: _three_quarters,
    1.0: lambda t: t,
}


class LRN(Kernel):
    attrs = {"alpha": 0.0001, "beta": 0.75, "bias": 1.0, "size": REQUIRED}

    def run(self, x, alpha, beta, bias, size):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        c = x.shape[1]
        before, after = (size - 1) // 2, size // 2  # floor and ceil of (size - 1) / 2
        dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
        sq = scratch("LRN squares", x.shape[:1] + (c + before + after,) + x.shape[2:], dtype)
        sq[:, :before] = 0
        sq[:, before + c:] = 0
        np.square(x, out=sq[:, before:before + c])
        total = scratch("LRN sums", x.shape, dtype)
        if size > 1:
            np.add(sq[:, 0:c], sq[:, 1:1 + c], out=total)
        else:
            np.copyto(total, sq[:, 0:c])
        for k in range(2, size):  # one shifted add per channel offset of the window
            total += sq[:, k:k + c]
        total *= dtype.type(alpha / size)
        total += dtype.type(bias)
        power = POWERS.get(float(beta))
        if power is not None and bias >= 0 and alpha >= 0:  # (t >= 0: the roots hold)
            denominator = power(total)
        else:
            denominator = total ** beta
        return (x / denominator).astype(x.dtype, copy=False)
