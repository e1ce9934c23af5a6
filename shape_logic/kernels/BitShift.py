"""BitShift: y = a << b or a >> b (direction "LEFT" / "RIGHT"), unsigned integers,
broadcasting."""
import numpy as np

from .base import REQUIRED
from .families import Binary, check_broadcast


class BitShift(Binary):
    attrs = {"direction": REQUIRED}

    def run(self, a, b, direction):
        check_broadcast(self, a, b)
        if direction == "LEFT":
            return np.left_shift(a, b).astype(a.dtype, copy=False)
        if direction == "RIGHT":
            return np.right_shift(a, b).astype(a.dtype, copy=False)
        raise self.fail(f"direction must be 'LEFT' or 'RIGHT', not {direction!r}")
