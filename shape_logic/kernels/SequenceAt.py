"""SequenceAt: element `position` of the sequence."""
from .base import Kernel
from .sequence_positions import position


class SequenceAt(Kernel):
    n_inputs = (2, 2)

    def run(self, seq, pos):
        return seq[position(self, pos, len(seq))]
