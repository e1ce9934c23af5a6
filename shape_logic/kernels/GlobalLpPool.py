"""GlobalLpPool: the p-norm (sum |x|^p)^(1/p) over all spatial axes, kept as size-1 axes."""
import numpy as np

from .base import Kernel


class GlobalLpPool(Kernel):
    attrs = {"p": 2}

    def run(self, x, p):
        if x.ndim < 3:
            raise self.fail(f"input must be [N, C, D1, ...], got {list(x.shape)}")
        acc = np.sum(np.abs(x) ** p, axis=tuple(range(2, x.ndim)), keepdims=True)
        return (acc ** (1.0 / p)).astype(x.dtype, copy=False)
