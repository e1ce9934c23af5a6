"""Where: y = condition ? a : b (the three broadcast together)."""
import numpy as np

from .base import Kernel
from .families import check_broadcast


class Where(Kernel):
    n_inputs = (3, 3)

    def run(self, cond, a, b):
        if cond.dtype != np.bool_:
            raise self.fail(f"condition must be bool, got {cond.dtype}")
        check_broadcast(self, cond, a, b)
        return np.where(cond, a, b).astype(a.dtype, copy=False)
