"""Not: y = not x (bool)."""
import numpy as np

from .base import Kernel


class Not(Kernel):
    def run(self, x):
        if x.dtype != np.bool_:
            raise self.fail(f"needs a bool input, got {x.dtype}")
        return np.logical_not(x)
