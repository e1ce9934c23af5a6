"""Multinomial: `sample_size` draws per row of X (unnormalized log-probabilities of the
classes) as class indices, [batch, sample_size] of type `dtype` (int32 by default); seeded
by `seed` where given (kernels/random.py)."""
import numpy as np

from .base import Kernel
from .random import generator, out_dtype


class Multinomial(Kernel):
    attrs = {"dtype": 6, "sample_size": 1, "seed": None}
    widens_small_floats = False

    def run(self, x, dtype, sample_size, seed):
        if x.ndim != 2 or (x.dtype.kind != "f" and x.dtype.name != "bfloat16"):
            raise self.fail(f"needs [batch, classes] of a float type, got {x.dtype} "
                            f"{list(x.shape)}")
        if dtype not in (6, 7) or sample_size < 1:
            raise self.fail(f"dtype {dtype} (int32: 6, int64: 7), sample_size {sample_size}")
        logits = x.astype(np.float64)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        cdf = np.cumsum(p, axis=1)
        cdf /= cdf[:, -1:]
        u = generator(seed).random((x.shape[0], sample_size))
        # the class of each draw: how many of the row's cumulative probabilities lie below it
        k = (u[:, :, None] >= cdf[:, None, :-1]).sum(axis=2)
        return k.astype(out_dtype(self, dtype))
