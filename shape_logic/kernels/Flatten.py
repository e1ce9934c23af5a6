"""Flatten: a 2-D view [prod(shape[:axis]), prod(shape[axis:])]."""
import numpy as np

from .base import Kernel


class Flatten(Kernel):
    attrs = {"axis": 1}

    def run(self, x, axis):
        if not -x.ndim <= axis <= x.ndim:
            raise self.fail(f"axis {axis} is out of range for rank {x.ndim}")
        ax = axis + x.ndim if axis < 0 else axis
        rows = int(np.prod(x.shape[:ax], dtype=np.int64))
        cols = int(np.prod(x.shape[ax:], dtype=np.int64))
        return x.reshape(rows, cols)
