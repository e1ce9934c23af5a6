"""Pad: pads [b_1.., e_1..] added before/after each axis (negative ones crop), in mode
constant (with constant_value), reflect, edge or wrap. Opset < 11: pads and value are
attributes; from 11 inputs, and from 18 an optional `axes` input says which axes."""
import numpy as np

from .base import Kernel

MODES = {"constant": "constant", "reflect": "reflect", "edge": "edge", "wrap": "wrap"}


class Pad(Kernel):
    attrs = {"mode": "constant", "pads": None, "value": 0.0}
    legacy = ("paddings",)
    n_inputs = (1, 4)

    def run(self, x, pads_in=None, value_in=None, axes_in=None, mode="constant", pads=None,
            value=0.0):
        if self.opset >= 11:
            pads = self.ints(pads_in)
            value = self.scalar(value_in) if value_in is not None and value_in.size else 0
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
        # crop first (negative pads), then pad the rest
        crop = tuple(slice(max(-b, 0), x.shape[a] - max(-e, 0)) for a, (b, e) in
                     enumerate(width))
        x = x[crop]
        grow = [(max(b, 0), max(e, 0)) for b, e in width]
        if mode == "constant":
            return np.pad(x, grow, mode="constant", constant_values=value)
        if mode == "reflect" and any(n < 2 and sum(g) for n, g in zip(x.shape, grow)):
            raise self.fail(f"reflect mode needs axes of size >= 2, got {list(x.shape)}")
        return np.pad(x, grow, mode=MODES[mode])
