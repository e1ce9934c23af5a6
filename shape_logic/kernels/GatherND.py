"""GatherND: slices of data at the coordinates in the last axis of indices, after
`batch_dims` leading axes the two share. onnxruntime's com.microsoft GatherND has no
batch_dims, and takes indices [..., 0]: the whole of data at each position."""
import numpy as np

from .base import Kernel


class GatherND(Kernel):
    attrs = {"batch_dims": 0}
    n_inputs = (2, 2)
    domains = ("", "com.microsoft")

    def __init__(self, attrs=None, **kw):
        super().__init__(attrs, **kw)
        if self.domain and "batch_dims" in (attrs or {}):
            raise self.fail("com.microsoft's GatherND has no attribute batch_dims")

    def run(self, x, indices, batch_dims=0):
        b, k = batch_dims, indices.shape[-1] if indices.ndim else 0
        if b < 0 or b >= indices.ndim or k < (0 if self.domain else 1) or b + k > x.ndim or \
                x.shape[:b] != indices.shape[:b] or x.ndim == 0:
            raise self.fail(f"indices {list(indices.shape)} do not fit data {list(x.shape)} "
                            f"with batch_dims {b}")
        shape = indices.shape[:-1] + x.shape[b + k:]
        if k == 0:  # (com.microsoft's: no coordinate, the whole of data at each position)
            return np.broadcast_to(x, shape).copy()
        batch = int(np.prod(x.shape[:b], dtype=np.int64))
        xs = x.reshape((batch,) + x.shape[b:])
        idx = indices.reshape((batch, -1, k))
        out = [xs[i][tuple(idx[i].T)] for i in range(batch)]
        return np.stack(out).reshape(shape) if out else np.zeros(shape, x.dtype)
