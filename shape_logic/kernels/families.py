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


class Binary(Kernel):
    """y = fn(a, b) with NumPy (multidirectional) broadcasting; the inputs share a dtype."""

    n_inputs = (2, 2)
    fn = None

    def run(self, a, b, **attrs):
        check_broadcast(self, a, b)
        return np.asarray(type(self).fn(a, b, **attrs)).astype(a.dtype, copy=False)


class Compare(Binary):
    """A comparison: broadcasting, a bool output."""

    def run(self, a, b, **attrs):
        check_broadcast(self, a, b)
        return type(self).fn(a, b)


class Logical(Binary):
    """And, Or, Xor: bool inputs, a bool output."""

    def run(self, a, b, **attrs):
        if a.dtype != np.bool_ or b.dtype != np.bool_:
            raise self.fail(f"needs bool inputs, got {a.dtype} and {b.dtype}")
        check_broadcast(self, a, b)
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
    """The inputs broadcast together (else a message with their shapes)."""
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
