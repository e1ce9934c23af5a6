"""Einsum: NumPy's einsum with the contraction order optimized (BLAS where it can)."""
import numpy as np

from .base import REQUIRED, Kernel


class Einsum(Kernel):
    attrs = {"equation": REQUIRED}
    n_inputs = (1, None)

    def run(self, *xs, equation):
        eq = equation.replace(" ", "")
        try:
            try:
                out = np.einsum(eq, *xs, optimize=len(xs) > 1)
            except ValueError:
                # numpy's plain path rejects an explicit output without "..." whose inputs
                # have one ("...->"); its optimizing path sums those axes, as ONNX's
                # reference does (rules/Einsum.lp)
                out = np.einsum(eq, *xs, optimize=True)
            return np.asarray(out).astype(xs[0].dtype, copy=False)
        except ValueError as e:
            shapes = ", ".join(str(list(x.shape)) for x in xs)
            raise self.fail(f"equation {equation!r} does not fit {shapes}: {e}") from None
