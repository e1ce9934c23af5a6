"""AveragePool: the mean over each window. Padding counts in the divisor only with
count_include_pad = 1, and then only the explicit pads, not the ceil_mode overhang."""
import numpy as np

from .pooling import Pool, separable, window_counts
from .spatial import pad_spatial


class AveragePool(Pool):
    attrs = {**Pool.attrs, "count_include_pad": 0}

    def pool(self, x, kernel, strides, dilations, begin, end, out, count_include_pad=0):
        xp = pad_spatial(x, begin, end, out, strides, kernel, dilations, 0)
        if 0 in out:
            return np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
        acc = separable(xp, kernel, strides, dilations, out, np.add)
        nd = len(kernel)
        lo, hi = (begin, end) if count_include_pad else ([0] * nd, [0] * nd)
        counts = window_counts(x.shape[2:], kernel, strides, dilations, begin, out, lo, hi)
        return (acc / np.maximum(counts, 1).astype(x.dtype)).astype(x.dtype, copy=False)
