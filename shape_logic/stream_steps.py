"""Streaming steps (TFDeploy Def. 16): one object per node that reads a streamed tensor,
keeping what it needs between chunks so that nothing is computed twice.

- `Pointwise`: the output's step t needs the inputs' step t only (elementwise ops, MatMul
  over other axes, Concat along another axis, a window sliding along another axis...).
  Inputs that arrive at different times wait in per-input buffers; the kernel runs on
  the steps every streamed input has.
- `Window`: Conv / MaxPool / AveragePool sliding along the streamed axis (dilated,
  strided, padded: causal convolutions pad the beginning only). The buffer keeps the
  last (k - 1) * d + 1 input steps; each new output step is computed once, from them.
  The end padding is added when the stream finishes, so the result equals a whole run.
- `SliceSteps`: Slice along the streamed axis from a start >= 0 with step 1: a delay.

`push(new)` takes {input port: new steps} and returns the output's new steps (or None);
`finish(new)` does the same for the last time.
"""
from __future__ import annotations

import numpy as np

from .kernels import load_kernel
from .kernels.families import Binary, Unary, Variadic, lowest
from .analyses.streaming import ELEMENTWISE, StreamError


def take(a: np.ndarray, axis: int, start: int, stop: int) -> np.ndarray:
    index = [slice(None)] * a.ndim
    index[axis] = slice(start, stop)
    return a[tuple(index)]


def extend(a: np.ndarray | None, b: np.ndarray, axis: int) -> np.ndarray:
    return b if a is None or a.shape[axis] == 0 else np.concatenate([a, b], axis=axis)


class Stepper:
    def __init__(self, node, kernel, args: list, in_axes: dict, out_axis: int, counter):
        self.node = node
        self.kernel = kernel
        self.args = args  # every input: a static array, None (absent), or streamed
        self.in_axes = in_axes  # port -> streamed axis of that input
        self.out_axis = out_axis
        self.counter = counter  # counter(node, inputs, output): multiply-adds, ...

    def fail(self, why: str) -> StreamError:
        return StreamError(f'cannot stream: {self.node.op} node "{self.node.name}" {why}')

    def run(self, args) -> np.ndarray:
        with np.errstate(all="ignore"):
            out = self.kernel(*args)[0]
        self.counter(self.node, args, out)
        return out

    def finish(self, new: dict):
        return self.push(new)


class Pointwise(Stepper):
    def __init__(self, *a, rank_out: int):
        super().__init__(*a)
        self.pending: dict[int, np.ndarray | None] = {p: None for p in self.in_axes}
        self.check_statics(rank_out)

    def check_statics(self, rank_out: int):
        """A constant input may not span the streamed axis (it would need all of it)."""
        op, j = self.node.op, self.out_axis
        cls = load_kernel(op)
        broadcasting = issubclass(cls, (Unary, Binary, Variadic)) or op in ELEMENTWISE
        for port, s in enumerate(self.args):
            if port in self.in_axes or s is None:
                continue
            if op == "Concat":
                raise self.fail("concatenates the stream with a constant "
                                f"({self.node.inputs[port]!r})")
            if broadcasting or (op == "MatMul" and j < rank_out - 2):
                aligned = j - (rank_out - s.ndim)
                if 0 <= aligned < s.ndim and s.shape[aligned] != 1:
                    raise self.fail(f"broadcasts a constant spanning the streamed axis "
                                    f"({self.node.inputs[port]!r} : {list(s.shape)})")

    def push(self, new: dict):
        for port, steps in new.items():
            self.pending[port] = extend(self.pending[port], steps, self.in_axes[port])
        if any(p is None for p in self.pending.values()):
            return None
        n = min(p.shape[self.in_axes[k]] for k, p in self.pending.items())
        if n == 0:
            return None
        args = list(self.args)
        for port, p in self.pending.items():
            ax = self.in_axes[port]
            args[port] = take(p, ax, 0, n)
            self.pending[port] = take(p, ax, n, p.shape[ax])
        out = self.run(args)
        if out.shape[self.out_axis] != n:
            raise self.fail(f"made {out.shape[self.out_axis]} steps from {n}")
        return out


class Window(Stepper):
    """A window of k taps, dilation d, stride s along the streamed spatial axis."""

    def __init__(self, node, kernel_cls, opset, args, in_axes, out_axis, counter, rank):
        ax = in_axes[0]
        nsp, sp = rank - 2, ax - 2
        attrs = dict(node.attrs)
        kernel = list(attrs.get("kernel_shape") or args[1].shape[2:])
        pads = list(attrs.get("pads") or [0] * (2 * nsp))
        if attrs.get("auto_pad", "NOTSET") == "VALID":
            pads = [0] * (2 * nsp)
        self.k = kernel[sp]
        self.s = (attrs.get("strides") or [1] * nsp)[sp]
        self.d = (attrs.get("dilations") or [1] * nsp)[sp]
        self.pad_begin, self.pad_end = pads[sp], pads[sp + nsp]
        pads[sp] = pads[sp + nsp] = 0
        attrs["pads"] = pads
        attrs.pop("auto_pad", None)
        k = kernel_cls(attrs, opset=opset, n_outputs=1)
        super().__init__(node, k, args, in_axes, out_axis, counter)
        self.buf = None  # input steps from padded position `base` on
        self.base = 0
        self.next = 0  # the next output step

    def pad(self, like: np.ndarray, n: int) -> np.ndarray:
        shape = list(like.shape)
        shape[self.in_axes[0]] = n
        value = lowest(like.dtype) if self.node.op == "MaxPool" else 0
        return np.full(shape, value, dtype=like.dtype)

    def push(self, new: dict):
        steps = new.get(0)
        if steps is None:
            return None
        if self.buf is None:
            steps = extend(self.pad(steps, self.pad_begin), steps, self.in_axes[0])
        self.buf = extend(self.buf, steps, self.in_axes[0])
        return self.compute()

    def finish(self, new: dict):
        out = self.push(new)
        if self.buf is None or not self.pad_end:
            return out
        self.buf = extend(self.buf, self.pad(self.buf, self.pad_end), self.in_axes[0])
        last = self.compute()
        if out is None or last is None:
            return last if out is None else out
        return np.concatenate([out, last], axis=self.out_axis)

    def compute(self):
        ax = self.in_axes[0]
        span = (self.k - 1) * self.d + 1
        end = self.base + self.buf.shape[ax]
        if end < span:
            return None
        last = (end - span) // self.s  # the last output step the buffer can make
        if last < self.next:
            return None
        args = list(self.args)
        lo = self.next * self.s - self.base
        args[0] = take(self.buf, ax, lo, last * self.s + span - self.base)
        out = self.run(args)
        self.next = last + 1
        drop = min(self.next * self.s - self.base, self.buf.shape[ax])
        self.buf = take(self.buf, ax, drop, self.buf.shape[ax])
        self.base += drop
        return out


class SliceSteps(Stepper):
    """Slice with the streamed axis among its axes: keep the steps in [start, end)."""

    def __init__(self, node, kernel, args, in_axes, out_axis, counter, rank):
        super().__init__(node, kernel, args, in_axes, out_axis, counter)
        ax = in_axes[0]
        ints = [None if a is None else [int(v) for v in np.asarray(a).reshape(-1)]
                for a in (args + [None] * 5)[1:5]]
        starts, ends, axes, steps = ints
        axes = axes if axes is not None else list(range(len(starts)))
        steps = steps if steps is not None else [1] * len(starts)
        pos = [a % rank for a in axes].index(ax)
        self.start, self.end, step = starts[pos], ends[pos], steps[pos]
        if step != 1 or self.start < 0 or self.end < 0:
            raise self.fail("slices the streamed axis other than [start:end] with "
                            "start, end >= 0 and step 1")
        keep = [i for i in range(len(axes)) if i != pos]
        self.rest = None
        if keep:  # the other sliced axes: the kernel, on each chunk
            def pick(v):
                return np.asarray([v[i] for i in keep], dtype=np.int64)

            self.rest = [args[0], pick(starts), pick(ends), pick(axes), pick(steps)]
        self.seen = 0

    def push(self, new: dict):
        steps = new.get(0)
        if steps is None:
            return None
        ax = self.in_axes[0]
        n = steps.shape[ax]
        lo, hi = max(self.start - self.seen, 0), min(self.end - self.seen, n)
        self.seen += n
        if hi <= lo:
            return None
        part = take(steps, ax, lo, hi)
        if self.rest is None:
            return part
        return self.run([part] + self.rest[1:])

