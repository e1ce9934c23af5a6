"""Range: start, start + delta, ... up to limit (exclusive): max(ceil((limit - start) /
delta), 0) elements of the inputs' dtype."""
import math

import numpy as np

from .base import Kernel


class Range(Kernel):
    n_inputs = (3, 3)

    def run(self, start, limit, delta):
        s, lim, d = (self.scalar(v) for v in (start, limit, delta))
        if d == 0:
            raise self.fail("delta cannot be 0")
        n = max(math.ceil((lim - s) / d), 0)
        return (s + np.arange(n, dtype=np.float64 if start.dtype.kind == "f" else np.int64)
                * d).astype(start.dtype)
