"""Pad: pads [b_1.., e_1..] added before/after each axis (negative ones crop), in mode
constant (with constant_value), reflect, edge or wrap. Opset < 11: pads and value are
attributes; from 11 inputs, and from 18 an optional `axes` input says which axes.
onnxruntime's com.microsoft Pad is opset 11's at any opset, its pads [2 * rank] or
[1, 2 * rank]."""
import numpy as np

from .base import Kernel

MODES = {"constant": "constant", "reflect": "reflect", "edge": "edge", "wrap": "wrap"}


class Pad(Kernel):
    attrs = {"mode": "constant", "pads": None, "value": 0.0}
    legacy = ("paddings",)
    n_inputs = (1, 4)
    domains = ("", "com.microsoft")

    def run(self, x, pads_in=None, value_in=None, axes_in=None, mode="constant", pads=None,
            value=0.0):
        if self.domain:
            if pads_in is None or axes_in is not None:
                raise self.fail("com.microsoft's takes 2 or 3 inputs: data, pads, value?")
            if not (np.ndim(pads_in) == 1 or np.ndim(pads_in) == 2 and len(pads_in) == 1):
                raise self.fail(f"pads must be [2 * rank] or [1, 2 * rank], not "
                                f"{list(np.shape(pads_in))}")
        if self.opset >= 11 or self.domain:
            pads = self.ints(pads_in)
            if value_in is not None and np.size(value_in) != 1:  # (onnxruntime's check too)
                raise self.fail(f"constant_value must hold one element, not {np.size(value_in)}")
            value = self.scalar(value_in) if value_in is not None else 0
        axes = [self.axis(a, x.ndim) for a in self.ints(axes_in)] if axes_in is not None \
            else list(range(x.ndim))
        if pads is None or len(pads) != 2 * len(axes):
            raise self.fail(f"pads {pads} must have 2 x {len(axes)} entries for input "
                            f"{list(x.shape)}")
        if mode not in MODES:
            raise self.fail(f"unknown mode {mode!r}")
        width = [[0, 0] for _ in range(x.ndim)]
        for i, a in enumerate(axes):
            width[a] = [pads[i], pads[len(axes) + i]]
        if any(n + b + e < 0 for n, (b, e) in zip(x.shape, width)):
            raise self.fail(f"pads {pads} crop more than input {list(x.shape)} has")
        grow = [(max(b, 0), max(e, 0)) for b, e in width]
        if mode == "constant":
            # pad, then crop the padded array: output i is x[i - begin] or the value, also
            # where a crop reaches past the input into the other end's padding
            # (onnxruntime: [1] padded by [1, -2] is [0]; cropping first took x[0:-1])
            y = np.pad(x, grow, mode="constant", constant_values=value)
            return y[tuple(slice(max(-b, 0), max(-b, 0) + n + b + e)
                           for n, (b, e) in zip(x.shape, width))]
        # the other modes crop first (negative pads), then pad the rest from what is left,
        # which must not be empty where pads crop or grow it (onnxruntime)
        if any(n + min(b, 0) + min(e, 0) < (1 if b or e else 0)
               for n, (b, e) in zip(x.shape, width)):
            raise self.fail(f"pads {pads} leave nothing of input {list(x.shape)} to pad "
                            f"from in mode {mode}")
        crop = tuple(slice(max(-b, 0), x.shape[a] - max(-e, 0)) for a, (b, e) in
                     enumerate(width))
        x = x[crop]
        # reflect: each pad below the size of what is left (onnxruntime)
        if mode == "reflect" and any(max(g) >= n and max(g) for n, g in zip(x.shape, grow)):
            raise self.fail(f"reflect pads {pads} reach past input {list(x.shape)}")
        return np.pad(x, grow, mode=MODES[mode])
