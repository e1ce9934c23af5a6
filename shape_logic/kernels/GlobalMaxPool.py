"""GlobalMaxPool: the maximum over all spatial axes, kept as size-1 axes."""
import numpy as np

from .base import Kernel
from .nchwc_ops import NCHWC, NchwcGlobalMaxPool


class GlobalMaxPool(Kernel):
    domains = ("", NCHWC)
    variants = {NCHWC: NchwcGlobalMaxPool}  # (nchwc_ops.py)

    def run(self, x):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        return np.max(x, axis=tuple(range(2, x.ndim)), keepdims=True)
