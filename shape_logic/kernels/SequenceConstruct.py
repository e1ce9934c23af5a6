"""SequenceConstruct: the sequence of the inputs (one element type)."""
from .base import Kernel, Seq


class SequenceConstruct(Kernel):
    n_inputs = (1, None)

    def run(self, *xs):
        if len({x.dtype for x in xs}) > 1:
            raise self.fail(f"elements of types {', '.join(sorted({str(x.dtype) for x in xs}))}")
        return Seq(xs)
