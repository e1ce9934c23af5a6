"""ExpandDims (com.microsoft): insert an axis of size 1 at `axis` (an int32 scalar, or a
vector of one element), a position of the output: in [-r - 1, r] for an input of rank r."""
import numpy as np

from .base import Kernel


class ExpandDims(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (2, 2)

    def run(self, x, axis_in):
        axis_in = np.asarray(axis_in)
        if axis_in.dtype != np.int32:
            raise self.fail(f"the axis must be int32, not {axis_in.dtype}")
        if axis_in.ndim > 1 or axis_in.size != 1:
            raise self.fail(f"the axis must be a scalar, not of shape {list(axis_in.shape)}")
        return np.expand_dims(x, self.axis(int(axis_in.reshape(-1)[0]), x.ndim + 1))
