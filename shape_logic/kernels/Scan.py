"""Scan (opset >= 9): run the body once per step along the scan axis of the scan inputs,
carrying the states, and stack the scan outputs (see rules/Scan.lp). The body runs on
this package's executor (kernels/bodies.py)."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body


class Scan(Kernel):
    attrs = {"body": REQUIRED, "num_scan_inputs": REQUIRED, "scan_input_axes": None,
             "scan_input_directions": None, "scan_output_axes": None,
             "scan_output_directions": None}
    n_inputs = (1, None)

    def setup(self, body, **_):
        self.body = Body(self, body)
        self.params, self.results = self.body.params, self.body.results
        self.outer_names, self.outer_values = self.body.outer, {}

    def run(self, *inputs, body, num_scan_inputs, scan_input_axes, scan_input_directions,
            scan_output_axes, scan_output_directions):
        m = num_scan_inputs
        s = len(inputs) - m
        if s < 0 or len(self.params) != len(inputs) or len(self.results) < s:
            raise self.fail(f"{len(inputs)} inputs ({m} scanned) do not fit a body of "
                            f"{len(self.params)} inputs and {len(self.results)} outputs")
        states, xs = list(inputs[:s]), inputs[s:]
        axes = [a % x.ndim for a, x in zip(scan_input_axes or [0] * m, xs)]
        backward = scan_input_directions or [0] * m
        lengths = {x.shape[a] for x, a in zip(xs, axes)}
        if len(lengths) > 1:
            raise self.fail(f"scan inputs of different lengths {sorted(lengths)}")
        steps = lengths.pop() if lengths else 0
        k = len(self.results) - s
        elems: list = [[] for _ in range(k)]
        for t in range(steps):
            feeds = dict(zip(self.params[:s], states))
            for j, x in enumerate(xs):
                feeds[self.params[s + j]] = np.take(x, steps - 1 - t if backward[j] else t,
                                                    axis=axes[j])
            outs = self.body(*[feeds[p] for p in self.params], outer=self.outer_values)
            states = outs[:s]
            for i in range(k):
                elems[i].append(outs[s + i])
        if steps == 0 and k:
            raise self.fail("a scan of length 0 has no element to give its outputs a shape")
        out_axes = scan_output_axes or [0] * k
        reverse = scan_output_directions or [0] * k
        ys = []
        for i in range(k):
            seq = elems[i][::-1] if reverse[i] else elems[i]
            ys.append(np.stack(seq, axis=out_axes[i] % (seq[0].ndim + 1)))
        return tuple(states + ys)
