"""Einsum: NumPy's einsum with the contraction order optimized (BLAS where it can)."""
import numpy as np

from .base import REQUIRED, Kernel


class Einsum(Kernel):
    attrs = {"equation": REQUIRED}
    n_inputs = (1, None)

    def run(self, *xs, equation):
        eq = equation.replace(" ", "")
        try:
            return np.einsum(eq, *xs, optimize=len(xs) > 1).astype(xs[0].dtype, copy=False)
        except ValueError as e:
            shapes = ", ".join(str(list(x.shape)) for x in xs)
            raise self.fail(f"equation {equation!r} does not fit {shapes}: {e}") from None
