"""Reshape: x's elements in a new shape. An entry 0 copies x's size at that axis (unless
allowzero = 1: then it is 0), -1 (at most one) takes the rest. Opset < 5: the shape is
an attribute."""
from .base import Kernel


class Reshape(Kernel):
    attrs = {"allowzero": 0, "shape": None}
    legacy = ("consumed_inputs",)
    n_inputs = (1, 2)

    def run(self, x, shape_in=None, allowzero=0, shape=None):
        target = self.ints(shape_in) if shape_in is not None else list(shape or [])
        if not allowzero:
            for i, v in enumerate(target):
                if v == 0:
                    if i >= x.ndim:
                        raise self.fail(f"shape {target} copies axis {i}, but the input "
                                        f"{list(x.shape)} has rank {x.ndim}")
                    target[i] = x.shape[i]
        if target.count(-1) > 1 or any(v < -1 for v in target):
            raise self.fail(f"bad target shape {target}")
        try:
            return x.reshape(target)
        except ValueError:
            raise self.fail(f"cannot reshape {list(x.shape)} ({x.size} elements) "
                            f"to {target}") from None
