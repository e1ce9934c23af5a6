"""Slice: x[starts:ends:steps] on `axes`. Opset < 10: starts/ends/axes are attributes;
from 10 they and steps are inputs. Out-of-range bounds clamp exactly as Python's
slices do (for a negative step, an end below -size means "through index 0")."""
from .base import Kernel


class Slice(Kernel):
    attrs = {"starts": None, "ends": None, "axes": None}
    n_inputs = (1, 5)

    def run(self, x, starts_in=None, ends_in=None, axes_in=None, steps_in=None,
            starts=None, ends=None, axes=None):
        if self.opset >= 10:
            starts, ends, axes = self.ints(starts_in), self.ints(ends_in), self.ints(axes_in)
        steps = self.ints(steps_in)
        if starts is None or ends is None or len(starts) != len(ends):
            raise self.fail(f"starts {starts} and ends {ends} must have one entry per axis")
        axes = list(range(len(starts))) if axes is None else axes
        steps = [1] * len(starts) if steps is None else steps
        if not len(axes) == len(steps) == len(starts):
            raise self.fail(f"starts {starts}, ends {ends}, axes {axes}, steps {steps} "
                            "differ in length")
        index = [slice(None)] * x.ndim
        for a, b, e, s in zip(axes, starts, ends, steps):
            if s == 0:
                raise self.fail("a step cannot be 0")
            # an end below -size with a negative step must not wrap: None = "past index 0"
            n = x.shape[self.axis(a, x.ndim)]
            stop = None if (s < 0 and e < -n) else e
            # a start below -size clamps to index 0 (Python would make the slice empty)
            begin = 0 if (s < 0 and b < -n) else b
            index[self.axis(a, x.ndim)] = slice(begin, stop, s)
        return x[tuple(index)]
