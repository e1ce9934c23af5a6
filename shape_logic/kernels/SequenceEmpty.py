"""SequenceEmpty: a sequence of no elements."""
from .base import Kernel, Seq


class SequenceEmpty(Kernel):
    attrs = {"dtype": 1}
    n_inputs = (0, 0)

    def run(self, dtype):
        return Seq()
