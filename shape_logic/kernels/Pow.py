"""Pow: y = a ^ b (broadcasting); y has a's dtype, b may have another."""
import numpy as np

from .families import Binary


class Pow(Binary):
    small_float_from = 0

    def run(self, a, b):
        a, b = self.operands(a, b)
        if a.dtype.kind in "iu" and b.dtype.kind in "iu":
            if np.any(b < 0):
                raise self.fail("integer base with a negative integer exponent")
            return np.power(a, b.astype(a.dtype)).astype(a.dtype)
        return np.power(a.astype(np.result_type(a, b)), b).astype(a.dtype)
