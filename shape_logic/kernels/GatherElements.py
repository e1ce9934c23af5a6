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
        idx = self.indices(indices, x.shape[ax], axis)
        return np.take_along_axis(x, idx, axis=ax)
