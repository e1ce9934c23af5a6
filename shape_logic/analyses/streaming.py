"""Which axes of which tensors a streamed input axis reaches (TFDeploy §3, tract's pulse),
and which nodes cannot stream - found before anything runs.

Per node, each (input, axis) either *maps* to an axis of the output (the output's step t
needs the input's steps around t only) or *blocks* (a reduction or contraction over it, a
Reshape, an op without a streaming step). The table is `axis_rule` below, over the ranks
the solve gives. The reach is Datalog, left-recursive from the streamed input:

    streamed(T, I) <= seed(T, I)
    streamed(Y, J) <= streamed(X, I) & maps(N, X, I, Y, J)
    stuck(N, X, I) <= streamed(X, I) & blocks(N, X, I)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..graph import Graph, Node
from ..kernels import KernelError, load_kernel
from ..kernels.families import Binary, Reduce, Softmaxish, Unary, Variadic
from .datalog import KnowledgeBase

RULES = """
streamed(T, I) <= seed(T, I)
streamed(Y, J) <= streamed(X, I) & maps(N, X, I, Y, J)
stuck(N, X, I) <= streamed(X, I) & blocks(N, X, I)
"""
# elementwise ops outside the kernel families (Unary, Binary, Variadic)
ELEMENTWISE = {"Clip", "Where", "Cast", "CastLike", "Identity", "Dropout", "Not", "IsNaN",
               "IsInf"}
WINDOWED = {"Conv", "MaxPool", "AveragePool"}  # slide a window along a spatial axis


class StreamError(Exception):
    """The graph cannot stream along the axis asked (exit 1): one line naming the node."""


@dataclass
class StreamPlan:
    axis: dict  # tensor -> its streamed axis
    nodes: list  # the nodes that read a streamed tensor, in topological order


def axis_rule(graph: Graph, node: Node, k: int, i: int, rank_of, static) -> int | str:
    """Where axis i of input k of `node` goes in its output: an axis, or why it cannot.
    `rank_of(t)` is a tensor's rank (None unknown); `static(t)` a constant's value."""
    op = node.op
    if len([t for t in node.outputs if t]) != 1 or not node.outputs[0]:
        return "has several outputs"
    try:
        cls = load_kernel(op)
    except KernelError:
        return "has no kernel"
    r_in, r_out = rank_of(node.inputs[k]), rank_of(node.outputs[0])
    if r_in is None or r_out is None:
        return "has an input or output of unknown rank"
    attrs = node.attrs
    if issubclass(cls, (Unary, Binary, Variadic)) or op in ELEMENTWISE:
        return i + r_out - r_in  # broadcasting aligns the trailing axes
    if op in WINDOWED:
        if k > 0:
            return "would stream its weights or bias"
        if op == "Conv" and i == 1:
            return "mixes the channels of the streamed axis"
        if i >= 2 and attrs.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
            return "pads the streamed axis with auto_pad (give explicit pads)"
        if i >= 2 and attrs.get("ceil_mode", 0):
            return "uses ceil_mode along the streamed axis"
        if i >= 2 and op == "AveragePool" and not attrs.get("count_include_pad", 0) \
                and any(attrs.get("pads") or [0]):
            return "averages over padding along the streamed axis (count_include_pad=0)"
        return i
    if op in ("GlobalAveragePool", "GlobalMaxPool"):
        return i if i < 2 else "reduces the streamed axis"
    if op == "BatchNormalization":
        return i if k == 0 and i != 1 else "would stream its channel axis or statistics"
    if op == "MatMul":
        if r_in < 2:
            return "would stream a 1-D operand"
        if (k == 0 and i == r_in - 1) or (k == 1 and i == r_in - 2):
            return "contracts the streamed axis"
        return i + r_out - r_in
    if op == "Transpose":
        perm = list(attrs.get("perm") or range(r_in - 1, -1, -1))
        return perm.index(i)
    if op == "Concat":
        return "concatenates along the streamed axis" if i == attrs.get("axis", 0) % r_in \
            else i
    if issubclass(cls, Reduce):
        return _reduce_rule(node, i, r_in, static)
    if issubclass(cls, Softmaxish):
        opset = graph.opset
        ax = attrs.get("axis", -1 if opset >= 13 else 1) % max(r_in, 1)
        if i == ax or (opset < 13 and i > ax):
            return "normalizes along the streamed axis"
        return i
    if op == "Slice":
        if k > 0:
            return "would stream its indices"
        if any(t and static(t) is None for t in node.inputs[1:]):
            return "has starts/ends/axes/steps that are not constants"
        return i
    return f"has no streaming step ({op})"


def _reduce_rule(node: Node, i: int, rank: int, static) -> int | str:
    attrs = node.attrs
    axes = attrs.get("axes")
    if len(node.inputs) > 1 and node.inputs[1]:
        value = static(node.inputs[1])
        if value is None:
            return "reduces axes that are not constants"
        axes = [int(a) for a in np.asarray(value).reshape(-1)]
    if not axes:
        if attrs.get("noop_with_empty_axes", 0):
            return i
        return "reduces the streamed axis"
    axes = sorted({a % rank for a in axes})
    if i in axes:
        return "reduces the streamed axis"
    return i if attrs.get("keepdims", 1) else i - sum(a < i for a in axes)


def stream_plan(graph: Graph, order: list[Node], seeds: dict, rank_of, static) -> StreamPlan:
    """Reach of the streamed axes `seeds` ({input: axis}); StreamError names the first
    node that cannot stream, or a tensor that would be streamed along two axes."""
    kb = KnowledgeBase(RULES)
    kb.facts("seed", seeds.items())
    maps, blocks, why = [], [], {}
    for node in graph.nodes:
        for k, x in enumerate(node.inputs):
            r = rank_of(x) if x else None
            for i in range(r or 0):
                rule = axis_rule(graph, node, k, i, rank_of, static)
                if isinstance(rule, str):
                    blocks.append((node.name, x, i))
                    why.setdefault((node.name, x, i), rule)
                else:
                    maps.append((node.name, x, i, node.outputs[0], rule))
            if x and r is None:  # unknown rank: nothing known maps
                blocks.append((node.name, x, 0))
                why.setdefault((node.name, x, 0), "has an input of unknown rank")
    kb.facts("maps", maps)
    kb.facts("blocks", blocks)
    stuck = kb.ask("stuck", None, None, None)
    if stuck:
        position = {n.name: p for p, n in enumerate(order)}
        n, x, i = min(stuck, key=lambda s: (position[s[0]], s[1], s[2]))
        node = next(nd for nd in graph.nodes if nd.name == n)
        raise StreamError(f'cannot stream: {node.op} node "{n}" {why[(n, x, i)]} '
                          f"(axis {i} of {x!r} is streamed)")
    axis: dict = {}
    for t, i in sorted(kb.ask("streamed", None, None)):
        if t in axis and axis[t] != i:
            raise StreamError(f"cannot stream: {t!r} would be streamed along axes "
                              f"{axis[t]} and {i}")
        axis[t] = i
    nodes = [n for n in order if any(t in axis for t in n.inputs if t)]
    for n in nodes:  # a safety net: every node reading a stream passes it on
        if n.outputs[0] not in axis:
            raise StreamError(f'cannot stream: {n.op} node "{n.name}" does not pass the '
                              "streamed axis on")
    return StreamPlan(axis, nodes)
