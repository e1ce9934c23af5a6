"""LpPool: the p-norm over each window, (sum |x|^p)^(1/p); padding adds zeros."""
import numpy as np

from .pooling import Pool, separable
from .spatial import pad_spatial


class LpPool(Pool):
    attrs = {**Pool.attrs, "p": 2}

    def pool(self, x, kernel, strides, dilations, begin, end, out, p=2):
        xp = pad_spatial(np.abs(x) ** p, begin, end, out, strides, kernel, dilations, 0)
        if 0 in out:
            return np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
        acc = separable(xp, kernel, strides, dilations, out, np.add)
        return (acc ** (1.0 / p)).astype(x.dtype, copy=False)
