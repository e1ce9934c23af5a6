"""AveragePool: the mean over each window. Padding counts in the divisor only with
count_include_pad = 1, and then only the explicit pads, not the ceil_mode overhang."""
import numpy as np

from .pooling import Pool, plane_means, separable, window_counts
from .nchwc_ops import NCHWC, NchwcAveragePool


class AveragePool(Pool):
    domains = ("", NCHWC)
    variants = {NCHWC: NchwcAveragePool}  # (nchwc_ops.py)

    attrs = {**Pool.attrs, "count_include_pad": 0}

    def setup(self, **attrs):
        super().setup(**attrs)
        self._counts = {}  # (input shape, count_include_pad) -> window sizes, flat
        self._weights = {}  # plane_means' vectors

    def pool(self, x, kernel, strides, dilations, begin, end, out, count_include_pad=0):
        if 0 in out:
            return np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
        n, c = x.shape[:2]
        if self.whole(x, kernel, dilations, begin, end, out):  # one window: the mean
            return plane_means(x, self._weights)
        acc = separable(x, kernel, strides, dilations, begin, out, np.add, 0)
        key = (x.shape, count_include_pad)
        counts = self._counts.get(key)
        if counts is None:
            nd = len(kernel)
            lo, hi = (begin, end) if count_include_pad else ([0] * nd, [0] * nd)
            counts = window_counts(x.shape[2:], kernel, strides, dilations, begin, out, lo, hi)
            counts = np.maximum(counts, 1).astype(x.dtype).reshape(-1)
            if len(self._counts) > 64:
                self._counts.clear()
            self._counts[key] = counts
        # over whole planes: long rows
        return np.divide(acc.reshape(n * c, -1), counts).reshape(acc.shape)
