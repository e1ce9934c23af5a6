"""ConstantOfShape: a tensor of the given shape filled with `value` (a one-element tensor
attribute; default float32 0)."""
import numpy as np

from .base import Kernel


class ConstantOfShape(Kernel):
    attrs = {"value": None}

    def run(self, shape, value=None):
        dims = self.ints(shape)
        if any(d < 0 for d in dims):
            raise self.fail(f"shape {dims} has a negative dim")
        fill = np.zeros(1, np.float32) if value is None else np.asarray(value)
        if fill.size != 1:
            raise self.fail(f"value must have one element, got {fill.size}")
        return np.full(dims, fill.reshape(-1)[0], dtype=fill.dtype)
