"""OneHot: a new axis `axis` of size depth with values[1] where it equals the index and
values[0] elsewhere; negative indices count from depth, out-of-range ones hit nothing."""
import numpy as np

from .base import Kernel


class OneHot(Kernel):
    attrs = {"axis": -1}
    n_inputs = (3, 3)

    def run(self, indices, depth, values, axis):
        if indices.ndim < 1:  # (onnx's shape inference refuses scalar indices)
            raise self.fail("indices must have rank 1 or more, not 0")
        d = int(self.scalar(depth))
        if d < 1 or values.size != 2:
            raise self.fail(f"depth {d} must be >= 1 and values must have 2 entries, "
                            f"got {values.size}")
        ax = self.axis(axis, indices.ndim + 1)
        idx = indices.astype(np.int64)
        idx = np.where(idx < 0, idx + d, idx)
        hot = np.expand_dims(idx, ax) == np.arange(d).reshape(
            (-1,) + (1,) * (indices.ndim - ax))
        off, on = values.reshape(-1)
        return np.where(hot, on, off).astype(values.dtype)
