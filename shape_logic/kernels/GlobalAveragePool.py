"""GlobalAveragePool: the mean over all spatial axes, kept as size-1 axes (one BLAS
matrix-vector product for float32/float64: pooling.plane_means)."""
from .base import Kernel
from .pooling import plane_means
from .nchwc_ops import NCHWC, NchwcGlobalAveragePool


class GlobalAveragePool(Kernel):
    domains = ("", NCHWC)
    variants = {NCHWC: NchwcGlobalAveragePool}  # (nchwc_ops.py)

    def setup(self, **attrs):
        self._weights = {}  # (plane size, dtype) -> the vector of 1 / size

    def run(self, x):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        return plane_means(x, self._weights)
