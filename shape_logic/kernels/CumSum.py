"""CumSum: running sums along the axis given by the second input; exclusive = 1 leaves
out the element itself, reverse = 1 sums from the end."""
import numpy as np

from .base import Kernel


class CumSum(Kernel):
    attrs = {"exclusive": 0, "reverse": 0}
    n_inputs = (2, 2)

    def run(self, x, axis_in, exclusive, reverse):
        ax = self.axis(int(self.scalar(axis_in)), x.ndim)
        y = np.flip(x, ax) if reverse else x
        out = np.cumsum(y, axis=ax, dtype=x.dtype)
        if exclusive:  # shift by one along the axis, a zero first
            out = out - y
        return np.ascontiguousarray(np.flip(out, ax) if reverse else out)
