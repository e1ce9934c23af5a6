"""SequenceInsert: the sequence with a tensor inserted before `position` (default: at the end)."""
from .base import Kernel, Seq
from .sequence_positions import position


class SequenceInsert(Kernel):
    n_inputs = (2, 3)

    def run(self, seq, x, pos=None):
        if seq.dtype is not None and seq.dtype != x.dtype:  # (an empty one's too)
            raise self.fail(f"a {x.dtype} tensor into a sequence of {seq.dtype}")
        k = len(seq) if pos is None else position(self, pos, len(seq), past_end=True)
        return Seq([*seq[:k], x, *seq[k:]])
