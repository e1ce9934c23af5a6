"""Transpose: axes permuted by `perm` (default: reversed)."""
import numpy as np

from .base import Kernel


class Transpose(Kernel):
    attrs = {"perm": None}

    def run(self, x, perm=None):
        if perm is None:
            return np.transpose(x)
        if sorted(perm) != list(range(x.ndim)):
            raise self.fail(f"perm {perm} is not a permutation of the {x.ndim} axes "
                            f"of {list(x.shape)}")
        return np.transpose(x, perm)
