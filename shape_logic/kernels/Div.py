"""Div: y = a / b (broadcasting); integers divide truncating toward zero, as in C."""
import numpy as np

from .families import Binary


class Div(Binary):
    def run(self, a, b):
        a, b = self.operands(a, b)
        if a.dtype.kind in "iu":
            if np.any(b == 0):
                raise self.fail("integer division by zero")
            q = np.floor_divide(a, b)
            # floor and truncation differ when the division is inexact and the signs differ
            fix = (q * b != a) & ((a < 0) != (b < 0))
            return (q + fix).astype(a.dtype)
        return np.divide(a, b).astype(a.dtype, copy=False)
