"""ConcatFromSequence: the elements joined along `axis`, or stacked along a new one."""
import numpy as np

from .base import REQUIRED, Kernel


class ConcatFromSequence(Kernel):
    attrs = {"axis": REQUIRED, "new_axis": 0}

    def run(self, seq, axis, new_axis):
        if not seq:
            raise self.fail("an empty sequence has nothing to join")
        if new_axis not in (0, 1):
            raise self.fail(f"new_axis must be 0 or 1, not {new_axis}")
        rank = seq[0].ndim + new_axis
        a = self.axis(axis, rank)
        try:
            return np.stack(seq, axis=a) if new_axis else np.concatenate(seq, axis=a)
        except ValueError as e:
            raise self.fail(f"elements of shapes {', '.join(str(list(x.shape)) for x in seq)}: {e}")
