"""Mod: the remainder (broadcasting). fmod = 0: the sign of the divisor, like Python's %
(ONNX meant it for integers, but its tests apply it to floats too); fmod = 1: the sign
of the dividend, like C's fmod."""
import numpy as np

from .families import Binary, check_broadcast


class Mod(Binary):
    attrs = {"fmod": 0}

    def run(self, a, b, fmod):
        check_broadcast(self, a, b)
        if fmod:
            return np.fmod(a, b).astype(a.dtype, copy=False)
        if a.dtype.kind in "iu" and np.any(b == 0):
            raise self.fail("integer modulo by zero")
        return np.mod(a, b).astype(a.dtype, copy=False)
