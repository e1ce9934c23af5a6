"""Squeeze: remove size-1 axes (the given `axes`, or all of them). Opset < 13: axes is
an attribute; from 13 an optional input."""
import numpy as np

from .base import Kernel


class Squeeze(Kernel):
    attrs = {"axes": None}
    n_inputs = (1, 2)

    def run(self, x, axes_in=None, axes=None):
        if self.opset >= 13 or axes_in is not None:
            axes = self.ints(axes_in)
        if axes is None:
            return np.squeeze(x)
        norm = tuple(self.axis(a, x.ndim) for a in axes)
        bad = [a for a in norm if x.shape[a] != 1]
        if bad:
            raise self.fail(f"axes {bad} of {list(x.shape)} do not have size 1")
        return np.squeeze(x, axis=norm)
