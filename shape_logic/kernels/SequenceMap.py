"""SequenceMap: the body run on each element of the first sequence (and the same element
of every other sequence input; a tensor input as it is), its outputs gathered into
sequences. The body runs on this package's executor (kernels/bodies.py)."""
from .base import REQUIRED, Kernel, Seq
from .bodies import Body


class SequenceMap(Kernel):
    attrs = {"body": REQUIRED}
    n_inputs = (1, None)

    def setup(self, body):
        self.body = Body(self, body)
        self.outer_names, self.outer_values = self.body.outer, {}

    def run(self, seq, *others, body):
        if not isinstance(seq, list):
            raise self.fail("input 0 must be a sequence")
        n = len(seq)
        for k, o in enumerate(others, 1):
            if isinstance(o, list) and len(o) != n:
                raise self.fail(f"input {k} has {len(o)} elements, input 0 {n}")
        outs = [Seq() for _ in range(self.n_outputs)]
        for i in range(n):
            args = [seq[i]] + [o[i] if isinstance(o, list) else o for o in others]
            for acc, value in zip(outs, self.body(*args, outer=self.outer_values)):
                acc.append(value)
        return tuple(outs) if self.n_outputs > 1 else outs[0]
