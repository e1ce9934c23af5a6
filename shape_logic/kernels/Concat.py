"""Concat: the inputs joined along `axis`.

A chain of Concats each extending the one before (DenseNet's dense blocks: every layer
joins the block's tensor so far with its own 32 channels) copies the whole tensor again
at every link, quadratic in the block's length. The executor marks such chains
(exec_concat.py): the head allocates the whole chain's tensor (`reserve`, its size
along the axis) and gives the part it filled as a view; a link that `extends` finds
that view as its first input, copies only its other inputs after it and gives the
longer view. Links write only past the end of the view they were given, so every
earlier view keeps its values. When the first input is not such a view (or anything
does not fit), a link joins its inputs as usual.
"""
import numpy as np

from .base import REQUIRED, Kernel


class Concat(Kernel):
    attrs = {"axis": REQUIRED}
    n_inputs = (1, None)
    reserve = None  # a chain's head: the chain's whole size along the axis (see above)
    extends = False  # a chain's link: the first input is the chain's tensor so far

    def __init__(self, attrs=None, opset: int = 18, n_outputs: int = 1, domain: str = ""):
        if opset < 4:  # (before opset 4 the axis is 1 by default)
            attrs = {"axis": 1, **(attrs or {})}
        super().__init__(attrs, opset, n_outputs, domain)

    def run(self, *xs, axis):
        ax = self.axis(axis, xs[0].ndim)
        if self.extends or self.reserve is not None:
            y = self.in_place(xs, ax)
            if y is not None:
                return y
        try:
            return np.concatenate(xs, axis=ax)
        except ValueError:
            shapes = ", ".join(str(list(x.shape)) for x in xs)
            raise self.fail(f"cannot join {shapes} along axis {axis}") from None

    def in_place(self, xs, ax):
        """The joined tensor as a view of the chain's buffer, or None (join as usual)."""
        first = xs[0]
        if self.extends:
            buf, start, rest = first.base, first.shape[ax], xs[1:]
            if not _prefix(first, buf, ax):
                return None
        else:
            shape = list(first.shape)
            shape[ax] = self.reserve
            buf, start, rest = np.empty(shape, first.dtype), 0, xs
        end = start + sum(x.shape[ax] for x in rest)
        off = buf.shape[:ax] + buf.shape[ax + 1:]
        if end > buf.shape[ax] or any(x.dtype != buf.dtype or x.ndim != buf.ndim
                                      or x.shape[:ax] + x.shape[ax + 1:] != off for x in rest):
            return None
        lead = (slice(None),) * ax
        for x in rest:
            n = x.shape[ax]
            buf[lead + (slice(start, start + n),)] = x
            start += n
        return buf[lead + (slice(0, end),)]


def _prefix(view, buf, ax) -> bool:
    """Whether `view` is buf's first entries along axis `ax` (all of the other axes)."""
    return isinstance(buf, np.ndarray) and buf.ndim == view.ndim and \
        buf.dtype == view.dtype and buf.strides == view.strides and \
        buf.shape[:ax] + buf.shape[ax + 1:] == view.shape[:ax] + view.shape[ax + 1:] and \
        buf.__array_interface__["data"][0] == view.__array_interface__["data"][0]
