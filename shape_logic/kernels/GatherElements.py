"""GatherElements: y[i][j] = x[index[i][j]][j] along `axis` (indices shaped like the
output; negative ones count from the end)."""
import numpy as np

from .base import Kernel


class GatherElements(Kernel):
    attrs = {"axis": 0}
    n_inputs = (2, 2)

    def run(self, x, indices, axis):
        ax = self.axis(axis, x.ndim)
        if indices.ndim != x.ndim:
            raise self.fail(f"indices {list(indices.shape)} and data {list(x.shape)} "
                            "differ in rank")
        n = x.shape[ax]
        idx = indices.astype(np.int64)
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise self.fail(f"indices in [{idx.min()}, {idx.max()}] are out of range for "
                            f"axis {axis} of size {n}")
        idx = np.where(idx < 0, idx + n, idx)
        return np.take_along_axis(x, idx, axis=ax)
