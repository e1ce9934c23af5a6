"""GlobalAveragePool: the mean over all spatial axes, kept as size-1 axes.

float32/float64: one matrix-vector product of the planes [N*C, H*W] with a vector of
1 / (H*W) (BLAS; NumPy's mean reduces each short row on its own: squeezenet's
[1000, 13, 13] 61 -> 13 us, ResNet's [2048, 7, 7] 66 -> 11 us, hot)."""
import numpy as np

from .base import Kernel


class GlobalAveragePool(Kernel):
    def setup(self, **attrs):
        self._weights = (None, None)  # ((plane size, dtype), the vector of 1 / size)

    def run(self, x):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        size = int(np.prod(x.shape[2:]))
        if x.dtype not in (np.float32, np.float64) or size == 0 or x.size == 0:
            return np.mean(x, axis=tuple(range(2, x.ndim)), keepdims=True).astype(x.dtype)
        key = (size, x.dtype)
        if self._weights[0] != key:
            self._weights = (key, np.full(size, 1 / size, x.dtype))
        planes = np.ascontiguousarray(x).reshape(-1, size)
        return np.matmul(planes, self._weights[1]).reshape(x.shape[:2] + (1,) * (x.ndim - 2))
