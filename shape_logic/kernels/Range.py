"""Range: start, start + delta, ... up to limit (exclusive): max(ceil((limit - start) /
delta), 0) elements of the inputs' dtype. onnxruntime's com.microsoft Range takes delta
optional, 1 where absent."""
import math

import numpy as np

from .base import Kernel


class Range(Kernel):
    n_inputs = (2, 3)
    domains = ("", "com.microsoft")

    def run(self, start, limit, delta=None):
        if delta is None and not self.domain:
            raise self.fail("takes 3 inputs, got 2 (delta is optional in com.microsoft's only)")
        s, lim = self.scalar(start), self.scalar(limit)
        d = 1 if delta is None else self.scalar(delta)
        if d == 0:
            raise self.fail("delta cannot be 0")
        n = max(math.ceil((lim - s) / d), 0)
        return (s + np.arange(n, dtype=np.float64 if start.dtype.kind == "f" else np.int64)
                * d).astype(start.dtype)
