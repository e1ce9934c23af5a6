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
        # the output is shaped like the indices: off the axis they may be shorter than x
        # (x is cut to them), never longer (np.take_along_axis would broadcast both)
        for k, (i, d) in enumerate(zip(indices.shape, x.shape)):
            if k != ax and i > d:
                raise self.fail(f"indices {list(indices.shape)} are longer than the data "
                                f"{list(x.shape)} at axis {k}")
        idx = self.indices(indices, x.shape[ax], axis)
        x = x[tuple(slice(None) if k == ax else slice(0, i) for k, i in enumerate(idx.shape))]
        return np.take_along_axis(x, idx, axis=ax)
