"""QLinearConcat (com.microsoft): Concat along `axis` of the dequantized tensors (inputs 2,
5, 8, .., each followed by its scale and zero point), quantized into y (8-bit integers of
one type)."""
import numpy as np

from .QLinearAdd import dequantized, requantized
from .base import REQUIRED, Kernel


class QLinearConcat(Kernel):
    domains = ("com.microsoft",)
    attrs = {"axis": REQUIRED}
    n_inputs = (5, None)

    def run(self, y_scale, y_zero, *rest, axis):
        if len(rest) % 3:
            raise self.fail(f"takes each tensor with its scale and zero point: {len(rest)} "
                            "inputs after y's two")
        xs = rest[0::3]
        if len({x.dtype for x in xs} | {y_zero.dtype}) != 1:
            raise self.fail("the tensors and y's zero point must be of one 8-bit type")
        ranks = {x.ndim for x in xs}
        if len(ranks) != 1:
            raise self.fail(f"tensors of ranks {sorted(ranks)}: one rank is needed")
        a = self.axis(axis, xs[0].ndim)
        parts = [dequantized(self, x, s, z) for x, s, z in zip(xs, rest[1::3], rest[2::3])]
        try:
            v = np.concatenate(parts, axis=a)
        except ValueError:
            raise self.fail(f"shapes {[list(x.shape) for x in xs]} differ off axis {a}") \
                from None
        return requantized(self, v, y_scale, y_zero, y_zero.dtype)
