"""GlobalMaxPool: the maximum over all spatial axes, kept as size-1 axes."""
import numpy as np

from .base import Kernel
from .nchwc_ops import NCHWC, nchwc_kernel


class GlobalMaxPool(Kernel):
    domains = ("", NCHWC)

    def __new__(cls, attrs=None, opset=18, n_outputs=1, domain=""):
        # a com.microsoft.nchwc node: its own kernel (nchwc_ops.py), not this class's
        kernel = nchwc_kernel("GlobalMaxPool", attrs, opset, n_outputs, domain)
        return kernel or super().__new__(cls)

    def run(self, x):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        return np.max(x, axis=tuple(range(2, x.ndim)), keepdims=True)
