"""CumProd: running products along the axis given by the second input; exclusive = 1
leaves out the element itself (a 1 first), reverse = 1 multiplies from the end."""
import numpy as np

from .base import Kernel


class CumProd(Kernel):
    attrs = {"exclusive": 0, "reverse": 0}
    n_inputs = (2, 2)

    def run(self, x, axis_in, exclusive, reverse):
        ax = self.axis(int(self.scalar(axis_in)), x.ndim)
        y = np.flip(x, ax) if reverse else x
        if exclusive and y.shape[ax]:  # shift by one along the axis, a one first
            ones = np.ones(y.shape[:ax] + (1,) + y.shape[ax + 1:], y.dtype)
            y = np.concatenate([ones, np.delete(y, -1, axis=ax)], axis=ax)
        out = np.cumprod(y, axis=ax, dtype=x.dtype)
        return np.ascontiguousarray(np.flip(out, ax) if reverse else out)
