"""Shrink: y = x + bias where x < -lambd, x - bias where x > lambd, else 0 (any numbers)."""
import numpy as np

from .base import Kernel


class Shrink(Kernel):
    attrs = {"bias": 0.0, "lambd": 0.5}

    def run(self, x, bias, lambd):
        if x.dtype.kind not in "iuf":
            raise self.fail(f"needs numbers, got {x.dtype}")
        # floats in their own type; integers in float64, then cast back (as onnx's reference)
        v = x if x.dtype.kind == "f" else x.astype(np.float64)
        b, lam = v.dtype.type(bias), v.dtype.type(lambd)
        y = np.where(v < -lam, v + b, np.where(v > lam, v - b, v.dtype.type(0)))
        return y.astype(x.dtype)
