"""Unsqueeze: insert size-1 axes at `axes` (positions in the output, negative ones
counted from the output's end). Opset < 13: axes is an attribute; from 13 an input."""
import numpy as np

from .base import Kernel


class Unsqueeze(Kernel):
    attrs = {"axes": None}
    n_inputs = (1, 2)

    def run(self, x, axes_in=None, axes=None):
        if self.opset >= 13 or axes_in is not None:
            axes = self.ints(axes_in)
        if axes is None:
            raise self.fail("axes are required")
        rank = x.ndim + len(axes)
        norm = [self.axis(a, rank) for a in axes]
        if len(set(norm)) != len(norm):
            raise self.fail(f"axes {axes} repeat an axis (output rank {rank})")
        return np.expand_dims(x, tuple(norm))
