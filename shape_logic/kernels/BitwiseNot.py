"""BitwiseNot: the bitwise complement of an integer tensor."""
import numpy as np

from .base import Kernel


class BitwiseNot(Kernel):
    def run(self, x):
        if x.dtype.kind not in "iu":
            raise self.fail(f"needs an integer input, got {x.dtype}")
        return np.invert(x)
