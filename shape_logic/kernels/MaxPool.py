"""MaxPool: the maximum over each window; the optional second output Indices gives the
flat index (over N, C and the spatial axes) of the maximum, row-major unless
storage_order = 1 (column-major spatial axes)."""
from .pooling import Pool, max_pool


class MaxPool(Pool):
    attrs = {**Pool.attrs, "storage_order": 0}

    def pool(self, x, kernel, strides, dilations, begin, end, out, storage_order=0):
        return max_pool(x, kernel, strides, dilations, begin, end, out,
                        self.n_outputs > 1, storage_order)
