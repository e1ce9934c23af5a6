"""Scan: run the body once per step along the scan axis of the scan inputs, carrying the
states, and stack the scan outputs (see rules/Scan.lp). Opset 8 does that once per
element of a batch axis 0 in front of every state, scan input and output, over the
first sequence_lens[b] steps of scan axis 1 (all of them without sequence_lens), with
the scan outputs padded with zeros to the full length. The body runs on this package's
executor (kernels/bodies.py)."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body


class Scan(Kernel):
    attrs = {"body": REQUIRED, "num_scan_inputs": REQUIRED, "scan_input_axes": None,
             "scan_input_directions": None, "scan_output_axes": None,
             "scan_output_directions": None, "directions": None}
    n_inputs = (1, None)

    def setup(self, body, **_):
        self.body = Body(self, body)
        self.params, self.results = self.body.params, self.body.results
        self.outer_names, self.outer_values = self.body.outer, {}
        if self.opset < 9:  # sequence_lens comes first, and may be absent
            self.n_inputs = (0, None)

    def run(self, *inputs, body, num_scan_inputs, scan_input_axes, scan_input_directions,
            scan_output_axes, scan_output_directions, directions):
        if self.opset < 9:
            return self.batched(inputs[0] if inputs else None, inputs[1:], num_scan_inputs,
                                directions)
        m = num_scan_inputs
        s = self.n_states(len(inputs), m)
        states, xs = list(inputs[:s]), inputs[s:]
        axes = [a % x.ndim for a, x in zip(scan_input_axes or [0] * m, xs)]
        steps = self.length(x.shape[a] for x, a in zip(xs, axes))
        states, elems = self.steps(states, xs, axes, scan_input_directions or [0] * m, steps)
        if steps == 0 and elems:
            raise self.fail("a scan of length 0 has no element to give its outputs a shape")
        out_axes = scan_output_axes or [0] * len(elems)
        reverse = scan_output_directions or [0] * len(elems)
        ys = []
        for i, seq in enumerate(elems):
            seq = seq[::-1] if reverse[i] else seq
            ys.append(np.stack(seq, axis=out_axes[i] % (seq[0].ndim + 1)))
        return tuple(states + ys)

    def batched(self, seq_lens, inputs, m, directions):
        """Opset 8: one scan per batch element, states and scan outputs stacked along 0."""
        s = self.n_states(len(inputs), m)
        states, xs = inputs[:s], inputs[s:]
        batch = self.length((x.shape[0] for x in inputs), "batch sizes")
        steps = self.length((x.shape[1] for x in xs), "scan inputs of lengths")
        lens = [steps] * batch if seq_lens is None else self.ints(seq_lens)
        if len(lens) != batch or not all(0 <= n <= steps for n in lens):
            raise self.fail(f"sequence_lens {lens} do not fit {batch} sequences of at most "
                            f"{steps} steps")
        finals, elems = [], []
        for b, n in enumerate(lens):
            st, el = self.steps([x[b] for x in states], [x[b, :n] for x in xs], [0] * m,
                                directions or [0] * m, n)
            finals.append(st)
            elems.append(el)
        shapes = [next((el[i][0] for el in elems if el[i]), None)
                  for i in range(len(self.results) - s)]
        if any(e is None for e in shapes):
            raise self.fail("no sequence has a step to give the scan outputs a shape")
        ys = [np.stack([np.stack(el[i] + [np.zeros_like(e)] * (steps - len(el[i])))
                        for el in elems]) for i, e in enumerate(shapes)]
        finals = [np.stack([f[j] for f in finals]) if batch else states[j] for j in range(s)]
        return tuple(finals + ys)

    def n_states(self, n_inputs, m):
        s = n_inputs - m
        if s < 0 or len(self.params) != n_inputs or len(self.results) < s:
            raise self.fail(f"{n_inputs} inputs ({m} scanned) do not fit a body of "
                            f"{len(self.params)} inputs and {len(self.results)} outputs")
        return s

    def length(self, sizes, what="scan inputs of different lengths"):
        sizes = set(sizes)
        if len(sizes) > 1:
            raise self.fail(f"{what} {sorted(sizes)}")
        return sizes.pop() if sizes else 0

    def steps(self, states, xs, axes, backward, steps):
        """Run the body `steps` times from `states`: the final states and, for each scan
        output, its elements in step order."""
        s = len(states)
        elems: list = [[] for _ in range(len(self.results) - s)]
        for t in range(steps):
            feeds = dict(zip(self.params[:s], states))
            for j, x in enumerate(xs):
                feeds[self.params[s + j]] = np.take(x, steps - 1 - t if backward[j] else t,
                                                    axis=axes[j])
            outs = self.body(*[feeds[p] for p in self.params], outer=self.outer_values)
            for k, (old, new) in enumerate(zip(states, outs[:s])):
                # a state keeps its shape (rules/Scan.lp; onnxruntime fails as well)
                if np.shape(old) != np.shape(new):
                    raise ValueError(f"Scan: state {k} changes its shape from "
                                     f"{list(np.shape(old))} to {list(np.shape(new))}")
            states = list(outs[:s])
            for i, e in enumerate(elems):
                e.append(outs[s + i])
        return states, elems
