"""Loop: run the body while the iteration count is below M (if given) and the condition
holds (if given), carrying values; scan outputs stack the body's elements (rules/Loop.lp).
The body runs on this package's executor (kernels/bodies.py)."""
import numpy as np

from .base import REQUIRED, Kernel, Seq
from .bodies import Body


class Loop(Kernel):
    attrs = {"body": REQUIRED}
    n_inputs = (2, None)

    def setup(self, body):
        self.body = Body(self, body)
        self.outer_names, self.outer_values = self.body.outer, {}

    def __call__(self, *inputs):
        # M and cond are optional in first place: keep absent ones (None) where they are
        return self._loop(*inputs)

    def _loop(self, m, cond, *values):
        nc = len(values)
        if len(self.body.params) != nc + 2 or len(self.body.results) < nc + 1:
            raise self.fail(f"{nc} loop-carried values do not fit a body of "
                            f"{len(self.body.params)} inputs and {len(self.body.results)} outputs")
        trips = None if m is None else int(np.asarray(m).reshape(-1)[0])
        # the body's condition input: the loop's as given (without one, true), then the
        # body's own output, as onnxruntime passes them (its shape too). onnxruntime stops
        # on the body's false even without a condition input, which ONNX says it ignores:
        # so do we, as the rules do (rules/Loop.lp: loop_counted)
        cond_in = np.array(True) if cond is None else np.asarray(cond)
        go = bool(cond_in.reshape(-1)[0])
        values, elems, i = list(values), [], 0
        # the iteration number as the body declares it: a scalar, or a vector of one
        # (onnxruntime's loop.cc; rules/Loop.lp)
        shape = (1,) * self.body.declared_rank(0)
        while go and (trips is None or i < trips):
            outs = self.body(np.full(shape, i, np.int64), cond_in, *values,
                             outer=self.outer_values)
            cond_in = np.asarray(outs[0])
            go = bool(cond_in.reshape(-1)[0])
            values = outs[1:nc + 1]
            elems.append(outs[nc + 1:])
            i += 1
            if trips is None and cond is None and i > 10**6:
                raise self.fail("no trip count and no condition: the loop does not end")
        k = len(self.body.results) - nc - 1
        if k and not elems:
            raise self.fail("a loop that ran no iteration has no element to give its scan "
                            "outputs a shape")
        scans = [np.stack([e[j] for e in elems]) for j in range(k)]
        outs = tuple(v if type(v) is Seq or v is None else np.asarray(v)
                     for v in values + scans)
        return outs[:self.n_outputs]
