"""Gather: entries of x along `axis` picked by integer indices (negative ones count from
the end); the output is x.shape[:axis] + indices.shape + x.shape[axis+1:]."""
import numpy as np

from .base import Kernel


class Gather(Kernel):
    attrs = {"axis": 0}
    n_inputs = (2, 2)

    def run(self, x, indices, axis):
        ax = self.axis(axis, x.ndim)
        n = x.shape[ax]
        if indices.size and (indices.min() < -n or indices.max() >= n):
            raise self.fail(f"indices in [{indices.min()}, {indices.max()}] are out of "
                            f"range for axis {axis} of size {n}")
        return np.take(x, indices.astype(np.int64, copy=False), axis=ax)
