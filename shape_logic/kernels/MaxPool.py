"""MaxPool: the maximum over each window; the optional second output Indices gives the
flat index (over N, C and the spatial axes) of the maximum, row-major unless
storage_order = 1 (column-major spatial axes)."""
import numpy as np

from .pool_3x3s2 import fits, pool_3x3s2
from .pooling import Pool, max_pool
from .Relu import zeros
from .nchwc_ops import NCHWC, NchwcMaxPool


class MaxPool(Pool):
    domains = ("", NCHWC)
    variants = {NCHWC: NchwcMaxPool}  # (nchwc_ops.py)

    attrs = {**Pool.attrs, "storage_order": 0}
    # the executor moved a Relu of the input past the pool (exec_rewrite.pool_after_relu)
    relu = False

    def pool(self, x, kernel, strides, dilations, begin, end, out, storage_order=0):
        if self.relu and self.n_outputs == 1 and x.dtype.kind == "f" and \
                fits(x, kernel, strides, dilations, begin, out):  # the Relu by chunks
            return pool_3x3s2(x, begin, out, np.maximum, relu=True)
        y = max_pool(x, kernel, strides, dilations, begin, end, out,
                     self.n_outputs > 1, storage_order)
        if self.relu and y.dtype.kind == "f" and y.size:
            flat = y.reshape(-1)
            if y is x or not y.flags.c_contiguous or not y.flags.writeable:
                return np.maximum(flat, zeros(flat.size, y.dtype)).reshape(y.shape)
            np.maximum(flat, zeros(flat.size, y.dtype), out=flat)  # new: in place
        elif self.relu:
            y = np.maximum(y, np.zeros((), y.dtype))
        return y
