"""IsNaN: y = x is NaN (bool)."""
import numpy as np

from .base import Kernel


class IsNaN(Kernel):
    def run(self, x):
        return np.isnan(x)
