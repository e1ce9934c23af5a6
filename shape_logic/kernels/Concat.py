"""Concat: the inputs joined along `axis`."""
import numpy as np

from .base import REQUIRED, Kernel


class Concat(Kernel):
    attrs = {"axis": REQUIRED}
    n_inputs = (1, None)

    def run(self, *xs, axis):
        ax = self.axis(axis, xs[0].ndim)
        try:
            return np.concatenate(xs, axis=ax)
        except ValueError:
            shapes = ", ".join(str(list(x.shape)) for x in xs)
            raise self.fail(f"cannot join {shapes} along axis {axis}") from None

    def __init__(self, attrs=None, opset: int = 18, n_outputs: int = 1, domain: str = ""):
        if opset < 4:  # (before opset 4 the axis is 1 by default)
            attrs = {"axis": 1, **(attrs or {})}
        super().__init__(attrs, opset, n_outputs, domain)
