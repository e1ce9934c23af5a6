"""SequenceErase: the sequence without element `position` (default: the last)."""
from .base import Kernel, Seq
from .sequence_positions import position


class SequenceErase(Kernel):
    n_inputs = (1, 2)

    def run(self, seq, pos=None):
        if not seq:
            raise self.fail("nothing to erase from an empty sequence")
        k = len(seq) - 1 if pos is None else position(self, pos, len(seq))
        return Seq([*seq[:k], *seq[k + 1:]], elem=seq.dtype)
