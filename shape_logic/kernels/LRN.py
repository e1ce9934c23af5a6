"""LRN: local response normalization across channels,
y = x / (bias + alpha / size * sum of x^2 over channels c - (size-1)//2 .. c + size//2)^beta."""
import numpy as np

from .base import REQUIRED, Kernel


class LRN(Kernel):
    attrs = {"alpha": 0.0001, "beta": 0.75, "bias": 1.0, "size": REQUIRED}

    def run(self, x, alpha, beta, bias, size):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        c = x.shape[1]
        before, after = (size - 1) // 2, size // 2  # floor and ceil of (size - 1) / 2
        sq = np.square(x)
        width = [(0, 0)] * x.ndim
        width[1] = (before, after)
        sq = np.pad(sq, width)
        total = np.zeros_like(x)
        for k in range(size):  # one shifted add per channel offset of the window
            total += sq[:, k:k + c]
        return (x / (bias + (alpha / size) * total) ** beta).astype(x.dtype, copy=False)
