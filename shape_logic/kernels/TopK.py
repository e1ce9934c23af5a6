"""TopK: the k largest (or smallest) entries along `axis` and their int64 indices;
equal values keep the lower index first. Opset < 10: k is an attribute."""
import numpy as np

from .base import Kernel


class TopK(Kernel):
    attrs = {"axis": -1, "largest": 1, "sorted": 1, "k": None}
    n_inputs = (1, 2)

    def run(self, x, k_in=None, axis=-1, largest=1, sorted=1, k=None):
        if k_in is not None:
            k = self.scalar(k_in)
        ax = self.axis(axis, x.ndim)
        if k is None or not 0 <= k <= x.shape[ax]:
            raise self.fail(f"k = {k} is out of range for axis {axis} of {list(x.shape)}")
        key = x
        if largest:
            # an order-reversing key keeps the stable sort's low-index-first ties
            key = -x if x.dtype.kind in "fi" else np.iinfo(x.dtype).max - x \
                if x.dtype.kind == "u" else ~x
        order = np.argsort(key, axis=ax, kind="stable")
        idx = np.take(order, np.arange(k), axis=ax)
        return np.take_along_axis(x, idx, axis=ax), idx.astype(np.int64)
