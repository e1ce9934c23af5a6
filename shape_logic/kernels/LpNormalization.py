"""LpNormalization: x divided by its p-norm along `axis` (p is 1 or 2); a zero norm gives 0."""
import numpy as np

from .families import UnaryFloat


class LpNormalization(UnaryFloat):
    attrs = {"axis": -1, "p": 2}

    def run(self, x, axis, p):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        if p not in (1, 2):
            raise self.fail(f"p must be 1 or 2, got {p}")
        ax = self.axis(axis, x.ndim)
        a = np.abs(x)
        norm = np.sum(a, axis=ax, keepdims=True) if p == 1 else \
            np.sqrt(np.sum(a * a, axis=ax, keepdims=True))
        with np.errstate(invalid="ignore", divide="ignore"):
            y = np.where(norm == 0, x.dtype.type(0), x / norm)
        return y.astype(x.dtype, copy=False)
