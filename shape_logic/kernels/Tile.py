"""Tile: x repeated `repeats[i]` times along each axis i."""
import numpy as np

from .base import Kernel


class Tile(Kernel):
    n_inputs = (2, 3)

    def run(self, x, repeats, axis=None):
        reps = self.ints(repeats)
        if len(reps) != x.ndim or any(r < 0 for r in reps):
            raise self.fail(f"repeats {reps} must be {x.ndim} non-negative counts")
        return np.tile(x, reps)
