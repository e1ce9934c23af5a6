"""Family base classes: an elementwise, broadcasting, comparison, variadic or reduction
operator is a class attribute or two on top of these (the op files stay a few lines)."""
from __future__ import annotations

from functools import reduce

import numpy as np

from .base import Kernel


class Unary(Kernel):
    """y = fn(x), same dtype as x."""

    fn = None  # a NumPy ufunc or function of one array

    def run(self, x, **attrs):
        return np.asarray(type(self).fn(x, **attrs)).astype(x.dtype, copy=False)


class UnaryFloat(Unary):
    """A unary op defined on floating-point tensors only."""

    def run(self, x, **attrs):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        return super().run(x, **attrs)


# the operators that broadcast as Add-6 did before opset 7 (encodings/families.lp's
# legacy_bcast): B of one element, or a run of A's axes from `axis`, with broadcast = 1
LEGACY_BROADCAST = frozenset({"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal",
                              "Greater", "Less"})


class Binary(Kernel):
    """y = fn(a, b) with NumPy (multidirectional) broadcasting; the inputs share a dtype."""

    n_inputs = (2, 2)
    fn = None

    def __init__(self, attrs: dict | None = None, opset: int = 18, n_outputs: int = 1,
                 domain: str = ""):
        attrs = dict(attrs or {})
        self.legacy_broadcast = None  # (broadcast, axis) before opset 7
        if opset < 7 and type(self).__name__ in LEGACY_BROADCAST:
            self.legacy_broadcast = (attrs.pop("broadcast", 0), attrs.pop("axis", None))
        super().__init__(attrs, opset, n_outputs, domain)

    def operands(self, a, b):
        """a and b, b shaped to combine with a by NumPy's broadcasting: as they are, or
        before opset 7 as Add-6 says: one shape, or with broadcast = 1 b of one element or
        aligned with a run of a's axes from `axis` (by default a's last ones), each of its
        axes 1 or a's (onnx's test data from PyTorch add [2, 3] and [2, 1] at axis 0)."""
        if self.legacy_broadcast is None:
            check_broadcast(self, a, b)
            return a, b
        on, axis = self.legacy_broadcast
        if not on:
            if a.shape != b.shape:
                raise self.fail(f"shapes {list(a.shape)}, {list(b.shape)} differ (before "
                                "opset 7, broadcasting needs broadcast = 1)")
            return a, b
        if b.ndim <= a.ndim and b.size == 1:
            return a, b.reshape(())
        start = a.ndim - b.ndim if axis is None else axis + a.ndim if axis < 0 else axis
        run = a.shape[start:start + b.ndim]
        if b.ndim > a.ndim or start < 0 or len(run) != b.ndim or any(
                d not in (1, e) for d, e in zip(b.shape, run)):
            raise self.fail(f"{list(b.shape)} does not align with the axes of "
                            f"{list(a.shape)} from axis {start} (broadcast = 1, opset < 7)")
        return a, b.reshape(b.shape + (1,) * (a.ndim - start - b.ndim))

    def run(self, a, b, **attrs):
        a, b = self.operands(a, b)
        return np.asarray(type(self).fn(a, b, **attrs)).astype(a.dtype, copy=False)


class Compare(Binary):
    """A comparison: broadcasting, a bool output."""

    def run(self, a, b, **attrs):
        a, b = self.operands(a, b)
        return type(self).fn(a, b)


class Logical(Binary):
    """And, Or, Xor: bool inputs, a bool output."""

    def run(self, a, b, **attrs):
        if a.dtype != np.bool_ or b.dtype != np.bool_:
            raise self.fail(f"needs bool inputs, got {a.dtype} and {b.dtype}")
        a, b = self.operands(a, b)
        return type(self).fn(a, b)


class Variadic(Kernel):
    """Max, Min, Sum, Mean: fold fn over any number of broadcasting inputs."""

    n_inputs = (1, None)
    fn = None

    def run(self, *xs):
        check_broadcast(self, *xs)
        out = reduce(type(self).fn, xs)
        return self.finish(np.asarray(out), len(xs)).astype(xs[0].dtype, copy=False)

    def finish(self, out: np.ndarray, n: int) -> np.ndarray:
        return out


def check_broadcast(kernel: Kernel, *xs):
    """The inputs broadcast together (else a message with their shapes). Two shapes are
    compared axis by axis here (~1 us; np.broadcast_shapes ~5 us, a third of a small
    Add's time in a transformer's run)."""
    if len(xs) == 2:
        a, b = xs[0].shape, xs[1].shape
        if a == b or all(p == q or p == 1 or q == 1 for p, q in zip(a[::-1], b[::-1])):
            return
    try:
        np.broadcast_shapes(*(x.shape for x in xs))
    except ValueError:
        shapes = ", ".join(str(list(x.shape)) for x in xs)
        raise kernel.fail(f"shapes {shapes} do not broadcast") from None


class Reduce(Kernel):
    """ReduceSum/Mean/Max/...: axes as an attribute before `axes_input_since`, an input after.

    No axes means every axis, unless noop_with_empty_axes = 1 (then y = x).
    """

    attrs = {"axes": None, "keepdims": 1, "noop_with_empty_axes": 0}
    n_inputs = (1, 2)
    axes_input_since = 18

    def run(self, x, axes_in=None, axes=None, keepdims=1, noop_with_empty_axes=0):
        if self.opset >= self.axes_input_since or axes_in is not None:
            axes = self.ints(axes_in)
        if not axes:
            if noop_with_empty_axes:
                return x
            axes = range(x.ndim)
        # a scalar has no axis to name (ONNX's range [-r, r-1] is empty; onnxruntime
        # accepts any, onnx's reference none: we follow the spec, as rules/Reduce*.lp do)
        norm = tuple(sorted({self.axis(a, x.ndim) for a in axes}))
        return np.asarray(self.reduce(x, norm, bool(keepdims))).astype(x.dtype, copy=False)

    def reduce(self, x: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
        raise NotImplementedError


def lowest(dtype) -> float | int:
    """The identity of max: -inf for floats, the minimum of an integer type."""
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind == "b":
        return False
    return np.iinfo(dtype).min


def highest(dtype) -> float | int:
    if dtype.kind == "f":
        return np.inf
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).max


class ArgReduce(Kernel):
    """ArgMax/ArgMin: int64 indices along one axis; ties go to the first index unless
    select_last_index = 1 (then the axis is flipped and the index mirrored)."""

    attrs = {"axis": 0, "keepdims": 1, "select_last_index": 0}
    fn = None

    def run(self, x, axis=0, keepdims=1, select_last_index=0):
        if x.ndim == 0 and axis in (0, -1):  # a scalar's only index, as the runtimes allow
            return np.asarray(0, dtype=np.int64)
        ax = self.axis(axis, x.ndim)
        if x.shape[ax] == 0:
            raise self.fail(f"axis {axis} of {list(x.shape)} is empty")
        if select_last_index:
            idx = x.shape[ax] - 1 - type(self).fn(np.flip(x, ax), axis=ax)
        else:
            idx = type(self).fn(x, axis=ax)
        if keepdims:
            idx = np.expand_dims(idx, ax)
        return np.asarray(idx, dtype=np.int64)


class Softmaxish(Kernel):
    """Softmax and LogSoftmax: opset >= 13 along `axis` (default -1); before, the input
    is seen as 2-D [prod(shape[:axis]), prod(shape[axis:])] (axis default 1)."""

    attrs = {"axis": None}

    def run(self, x, axis=None):
        if self.opset >= 13:
            ax = self.axis(-1 if axis is None else axis, x.ndim)
            return self.along(x, ax)
        ax = self.axis(1 if axis is None else axis, x.ndim) if x.ndim else 0
        flat = x.reshape(int(np.prod(x.shape[:ax], dtype=np.int64)), -1)
        return self.along(flat, 1).reshape(x.shape)

    def along(self, x: np.ndarray, ax: int) -> np.ndarray:
        shifted = x - np.max(x, axis=ax, keepdims=True)
        e = np.exp(shifted)
        s = np.sum(e, axis=ax, keepdims=True)
        return self.finish(shifted, e, s).astype(x.dtype, copy=False)
