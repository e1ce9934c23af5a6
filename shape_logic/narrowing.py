"""Declared outputs that fix an input's symbolic dim (ONNX models).

An exporter writes each graph output's shape as it traced it, and a declaration can be
narrower than the graph: torch's dynamo exporter declares a bidirectional LSTM's output
[batch, 5, 4] where the input says [batch, seq, 8] and the graph computes [batch, seq, 4].
Solved as declared (INTERFACE: declared outputs are used), the model is consistent only
at seq = 5, and that is what we print - but a user who exported it for any length must see
why. So when an input's symbol is bound in an ONNX model, the model is solved again
without its outputs' declared dims; each binding that this leaves free is named in a
warning with the declaration that makes it and what the graph alone gives that output.
(A binding the graph makes on its own, such as a Reshape to a constant size, stays
silent.) JSON graphs are left alone: there an output annotation that determines an input
is written on purpose (backward inference)."""
from __future__ import annotations

from clingo import Function, String

from .decode import decode


def narrowing_warnings(problem, decoded) -> list[str]:
    graph = problem.graph
    if not _from_onnx(graph.source):
        return []
    bound = {s: v for s, v in decoded.bindings.items() if graph.symbol_class.get(s) == 0}
    declared = [name for name, info in graph.outputs.items()
                if info.shape is not None and info.shape.dims]
    if not bound or not declared:
        return []
    off = [Function("src", [Function("output"), String(name), Function("dims")])
           for name in declared]
    atoms, _ = problem.atoms(off=off)
    if atoms.conflicts:  # (cannot happen with fewer facts; nothing to compare then)
        return []
    alone = decode(graph, atoms)
    freed = {s: v for s, v in bound.items() if s not in alone.bindings}
    out = []
    for s, v in freed.items():
        makers = [name for name in declared if _fixes(graph.outputs[name].shape.dims,
                                                       alone.shapes.get(name), s)]
        by = ", ".join(f"graph output {name} is declared {graph.outputs[name].shape}"
                       f" (the graph alone gives {alone.shapes.get(name)})" for name in makers)
        out.append(f"{by or 'the graph outputs declared shapes'}, which fixes the input dim "
                   f"{s} = {v}: shapes here hold for that size only; if the declaration is "
                   "only the size an exporter traced, remove it")
    return out


def _fixes(dims, alone, symbol: str) -> bool:
    """Whether a declared shape differs from the graph's own at an axis that mentions
    `symbol` there."""
    if alone is None or alone.dims is None or len(alone.dims) != len(dims):
        return False
    return any(d != a and symbol in a.symbols() for d, a in zip(dims, alone.dims))


def _from_onnx(source) -> bool:
    """The graph was read from an ONNX model (a ModelProto or its GraphProto)."""
    return type(source).__name__ in ("ModelProto", "GraphProto")
