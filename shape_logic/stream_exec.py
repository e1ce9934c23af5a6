"""Streaming execution (TFDeploy §3.3): one input is fed in chunks along one axis.

    s = Stream("wavenet.json", "x", axis=2)          # other inputs: inputs={...}
    for chunk in chunks:
        new = s.push(chunk)      # {output: its new steps along the streamed axis}
    last = s.finish()            # the steps the end padding makes
    run_stream("wavenet.json", {"x": x}, "x", axis=2, chunk=1)   # -> whole outputs

Before anything runs, the graph is solved, the parts that do not depend on the stream
are computed once (constant folding, with the other inputs given whole), and the streamed
axes are propagated (analyses/streaming.py): a node that cannot stream is a StreamError
(exit 1) naming it. Then each push runs the streaming nodes in topological order, each
a stepper with its own buffers (stream_steps.py). `macs` counts the multiply-adds of the
convolutions and matrix products, per push.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .analyses.streaming import WINDOWED, StreamError, stream_plan
from .errors import InputError
from .kernels import graph_kernel
from .stream_steps import Pointwise, SliceSteps, Window

__all__ = ["Stream", "StreamError", "StreamResult", "run_stream"]


def multiply_adds(node, args, out) -> int:
    """Multiply-adds of a Conv (each output element: C/group * prod(kernel)) or a MatMul
    / Gemm (each output element: K); 0 for other ops."""
    if node.op == "Conv":
        return int(out.size * np.prod(args[1].shape[1:]))
    if node.op == "MatMul":
        return int(out.size * args[0].shape[-1])
    if node.op == "Gemm":
        return int(out.size * args[0].shape[0 if node.attrs.get("transA") else -1])
    return 0


class Stream:
    def __init__(self, graph, name: str, axis: int | None = None, inputs: dict | None = None,
                 rules=()):
        """Stream input `name` along `axis`; with no axis, `name` is a symbol (`T`) that is
        exactly one axis of one input's declared shape, and that axis is streamed."""
        from .executor import ExecutionError, _diagnostic_line, _kernel_failure
        from .solver import solve
        from .validate import validate

        sol = solve(graph, rules=rules)
        if sol.status == "error":
            raise ExecutionError(_diagnostic_line(sol))
        g = self.graph = sol.graph
        order = validate(g)
        inputs = dict(inputs or {})
        if axis is None:
            name, axis = _symbol_axis(g, name)
        if name not in g.inputs:
            raise InputError(f"--stream {name}:{axis}: {name!r} is not an input of the graph "
                             f"(inputs: {', '.join(map(repr, g.inputs))})", g.path)
        rank = len(sol.dims(name) or ())
        if not -rank <= axis < rank:
            raise InputError(f"--stream {name}:{axis}: axis out of range for {name} : "
                             f"{sol.shape(name)}", g.path)
        missing = [t for t in g.inputs if t != name and t not in inputs]
        if missing:
            raise InputError(f"missing input(s) {', '.join(map(repr, missing))} (only "
                             f"{name!r} is streamed)", g.path)
        self.name, self.axis = name, axis % rank
        self.expect = (sol.dims(name), sol.dtype(name), sol.shape(name))
        self.outputs = list(g.outputs) or [t for n in g.nodes for t in n.outputs if t and
                                           not any(t in m.inputs for m in g.nodes)]

        # the parts that do not depend on the stream: computed once (Dropout & co too)
        static = {t: info.data for t, info in g.initializers.items()}
        static.update({t: np.asarray(v) for t, v in inputs.items()})
        for node in order:
            if all(t in static for t in node.inputs if t):
                args = [static[t] if t else None for t in node.inputs]
                try:
                    with np.errstate(all="ignore"):
                        outs = graph_kernel(self.graph, node)(*args)
                except Exception as e:  # noqa: BLE001  (one line naming the node)
                    raise ExecutionError(_kernel_failure(node, args, e)) from None
                static.update((t, v) for t, v in zip(node.outputs, outs) if t)

        def rank_of(t):
            dims = sol.dims(t)
            return None if dims is None else len(dims)

        self.plan = stream_plan(g, order, {name: self.axis}, rank_of, static.get)
        self.static = static
        self.macs: list[int] = []
        self._count = 0
        self.steppers = [self._stepper(n, static, rank_of) for n in self.plan.nodes]
        self.finished = False

    def _counter(self, node, args, out):
        self._count += multiply_adds(node, args, out)

    def _stepper(self, node, static, rank_of):
        axis = self.plan.axis
        in_axes = {k: axis[t] for k, t in enumerate(node.inputs) if t in axis}
        args = [None if not t or t in axis else static[t] for t in node.inputs]
        out_axis = axis[node.outputs[0]]
        common = (args, in_axes, out_axis, self._counter)
        streamed = in_axes.get(0)
        if node.op in WINDOWED and streamed is not None and streamed >= 2:
            # the node's own kernel class (a node of another domain has none: exit 2, as
            # for `run`), made again per window with the streamed axis's padding taken out
            kernel_cls = type(graph_kernel(self.graph, node))
            return Window(node, kernel_cls, self.graph.opset, *common,
                          rank=rank_of(node.inputs[0]))
        if node.op == "Slice" and streamed is not None and self.graph.opset >= 10:
            r = rank_of(node.inputs[0])
            axes = args[3] if len(args) > 3 and args[3] is not None else range(len(args[1]))
            if streamed in {int(a) % r for a in np.asarray(axes).reshape(-1)}:
                return SliceSteps(node, graph_kernel(self.graph, node), *common, rank=r)
        return Pointwise(node, graph_kernel(self.graph, node), *common,
                         rank_out=rank_of(node.outputs[0]))

    # ----- running
    def push(self, chunk) -> dict:
        """Feed the next steps of the streamed input; the outputs' new steps."""
        if self.finished:
            raise StreamError("the stream is finished")
        chunk = np.asarray(chunk)
        self._check(chunk)
        return self._flow({self.name: chunk}, last=False)

    def _check(self, chunk: np.ndarray):
        """A chunk has the input's dtype, rank and dims off the streamed axis (exit 2)."""
        from .executor import BadInput
        from .graph import dtype_of_array

        dims, dtype, shape = self.expect
        ok = dims is not None and chunk.ndim == len(dims) and all(
            i == self.axis or not e.is_int or n == e.value
            for i, (n, e) in enumerate(zip(chunk.shape, dims)))
        if not ok:
            raise BadInput(f"a chunk of {self.name!r} has shape {list(chunk.shape)}; the "
                           f"graph wants {shape} (any size along axis {self.axis})")
        got = dtype_of_array(chunk) if chunk.dtype.kind in "biuf" else str(chunk.dtype)
        if dtype is not None and got != dtype:
            raise BadInput(f"a chunk of {self.name!r} has dtype {got}, the graph wants {dtype}")

    def finish(self) -> dict:
        """The end of the stream: windows add their end padding; the last steps."""
        self.finished = True
        return self._flow({}, last=True)

    def _flow(self, new: dict, last: bool) -> dict:
        from .executor import ExecutionError, _kernel_failure

        self._count = 0
        for stepper in self.steppers:
            node = stepper.node
            ins = {k: new[t] for k, t in enumerate(node.inputs) if t in new}
            if not ins and not last:
                continue
            try:
                out = stepper.finish(ins) if last else stepper.push(ins)
            except StreamError:
                raise
            except Exception as e:  # noqa: BLE001  (a kernel failure: one line)
                raise ExecutionError(_kernel_failure(node, list(ins.values()), e)) from None
            if out is not None:
                new[node.outputs[0]] = out
        self.macs.append(self._count)
        return {t: new[t] for t in self.outputs if t in new and t in self.plan.axis}

    def static_outputs(self) -> dict:
        """Outputs that do not depend on the stream (computed once)."""
        return {t: self.static[t] for t in self.outputs if t in self.static}


def _symbol_axis(g, symbol: str) -> tuple[str, int]:
    """The one (input, axis) whose declared dim is the symbol."""
    found = [(t, i) for t, info in g.inputs.items()
             if info.shape is not None and info.shape.dims is not None
             for i, d in enumerate(info.shape.dims) if str(d) == symbol]
    if len(found) != 1:
        where = ", ".join(f"{t}:{i}" for t, i in found) or "none"
        raise InputError(f"--stream {symbol}: the symbol must be exactly one axis of one input "
                         f"(found: {where}); give NAME:AXIS", g.path)
    return found[0]


class StreamResult(dict):
    """{output: whole array}; `macs` the multiply-adds of each push (the last: finish)."""

    macs: list


def run_stream(graph, inputs: dict, name: str, axis: int | None, chunk: int = 1,
               on_output: Callable | None = None, rules=()) -> StreamResult:
    """Feed inputs[name] in chunks of `chunk` steps along `axis`; the whole outputs (the
    concatenation of the steps). `on_output(index, {output: new steps})` sees each part."""
    from .load import load_graph

    g = load_graph(graph)
    if axis is None:
        name, axis = _symbol_axis(g, name)
    if name not in inputs:
        raise InputError(f"missing input {name!r} (the streamed one)")
    others = {k: v for k, v in inputs.items() if k != name}
    return feed(Stream(g, name, axis, others, rules=rules), inputs[name], chunk, on_output)


def feed(s: Stream, x, chunk: int, on_output: Callable | None = None) -> StreamResult:
    """Push x to the stream `s` in chunks, then finish it."""
    if chunk < 1:
        raise InputError(f"--chunk {chunk}: must be at least 1")
    x = np.asarray(x)
    ax = s.axis
    parts: dict[str, list] = {}
    pieces = [np.take(x, range(i, min(i + chunk, x.shape[ax])), axis=ax)
              for i in range(0, x.shape[ax], chunk)]
    for i, piece in enumerate(pieces + [None]):
        new = s.push(piece) if piece is not None else s.finish()
        for t, v in new.items():
            parts.setdefault(t, []).append(v)
        if on_output is not None and new:
            on_output(i, new)
    out = s.static_outputs()
    for t, vs in parts.items():
        out[t] = np.concatenate(vs, axis=s.plan.axis[t])
    result = StreamResult((t, out[t]) for t in s.outputs if t in out)
    result.macs = list(s.macs)
    return result
