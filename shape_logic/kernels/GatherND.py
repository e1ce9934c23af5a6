"""GatherND: slices of data at the coordinates in the last axis of indices, after
`batch_dims` leading axes the two share."""
import numpy as np

from .base import Kernel


class GatherND(Kernel):
    attrs = {"batch_dims": 0}
    n_inputs = (2, 2)

    def run(self, x, indices, batch_dims=0):
        b, k = batch_dims, indices.shape[-1]
        if b < 0 or b >= indices.ndim or k < 1 or b + k > x.ndim or \
                x.shape[:b] != indices.shape[:b]:
            raise self.fail(f"indices {list(indices.shape)} do not fit data {list(x.shape)} "
                            f"with batch_dims {b}")
        batch = int(np.prod(x.shape[:b], dtype=np.int64))
        xs = x.reshape((batch,) + x.shape[b:])
        idx = indices.reshape((batch, -1, k))
        out = [xs[i][tuple(idx[i].T)] for i in range(batch)]
        shape = indices.shape[:-1] + x.shape[b + k:]
        return np.stack(out).reshape(shape) if out else np.zeros(shape, x.dtype)
