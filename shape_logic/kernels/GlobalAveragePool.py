"""GlobalAveragePool: the mean over all spatial axes, kept as size-1 axes (one BLAS
matrix-vector product for float32/float64: pooling.plane_means)."""
from .base import Kernel
from .pooling import plane_means
from .nchwc_ops import NCHWC, nchwc_kernel


class GlobalAveragePool(Kernel):
    domains = ("", NCHWC)

    def __new__(cls, attrs=None, opset=18, n_outputs=1, domain=""):
        # a com.microsoft.nchwc node: its own kernel (nchwc_ops.py), not this class's
        kernel = nchwc_kernel("GlobalAveragePool", attrs, opset, n_outputs, domain)
        return kernel or super().__new__(cls)

    def setup(self, **attrs):
        self._weights = {}  # (plane size, dtype) -> the vector of 1 / size

    def run(self, x):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        return plane_means(x, self._weights)
