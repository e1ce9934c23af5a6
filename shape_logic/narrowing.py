"""Declared outputs of an ONNX model that would fix an input's symbolic dim.

An exporter writes each graph output's shape as it traced it, and a declaration can be
narrower than the graph: torch's dynamo exporter declares a bidirectional LSTM's output
[batch, 5, 4] where the input says [batch, seq, 8] and the graph computes [batch, seq, 4];
the legacy exporter declares [1, 1000] when only the input's batch was marked dynamic.
Runtimes take such a declaration as advice (onnxruntime warns when an output differs
and runs the model at any seq), and so do we: a declared output dim checks the graph -
one that contradicts it is still a shape error - but does not narrow the model's inputs.

So when an input's symbol is bound in an ONNX model, the model is solved again without
the declared shapes of its outputs, and each binding this leaves free comes from them: the
outputs whose declarations make it (where they state something other than the graph, at
an axis that mentions the symbol) are solved as undeclared from then on (their rank too),
and a warning names each declaration, the size it would fix and what the graph gives. A
binding the graph makes itself (a Reshape to a constant size) stays. JSON graphs are left
alone: there an output annotation that determines an input is written on purpose
(backward inference, INTERFACE section 2)."""
from __future__ import annotations

from dataclasses import replace

from .decode import decode


def without_narrowing(problem, atoms, decoded, funcs):
    """(problem, atoms, decoded, funcs, warnings): the solve to go on with - this one, or
    the model's without the declared outputs that would fix an input dim - and warnings."""
    graph = problem.graph
    as_is = (problem, atoms, decoded, funcs, [])
    if not _from_onnx(graph.source):
        return as_is
    bound = {s: v for s, v in decoded.bindings.items() if graph.symbol_class.get(s) == 0}
    declared = [name for name, info in graph.outputs.items()
                if info.shape is not None and info.shape.dims]
    if not bound or not declared:
        return as_is
    alone = _solved_without(problem, declared)
    if alone is None:
        return as_is
    freed = [s for s in bound if s not in alone[2].bindings]
    makers = {name: [s for s in freed if _fixes(graph.outputs[name].shape.dims,
                                                alone[2].shapes.get(name), s)]
              for name in declared}
    makers = {name: syms for name, syms in makers.items() if syms}
    if not makers:  # (bindings that no single declaration explains: as declared)
        return as_is
    if len(makers) < len(declared):  # the other declarations still count
        alone = _solved_without(problem, list(makers))
        if alone is None:
            return as_is
    warnings = [f"graph output {name} is declared {graph.outputs[name].shape}, which would fix "
                + " and ".join(f"the input dim {s} = {bound[s]}" for s in syms)
                + f"; the graph gives {alone[2].shapes.get(name)}, which is used (a declared "
                "output checks the graph but does not narrow the model's inputs: exporters "
                "declare the sizes they traced)" for name, syms in makers.items()]
    return (*alone, warnings)


def _solved_without(problem, outputs):
    """(problem, atoms, decoded, funcs) of the model with these outputs undeclared, or
    None when that shows a conflict (fewer facts do not make one; the first answer stands)."""
    graph = problem.graph
    undeclared = {name: replace(graph.outputs[name], shape=None) for name in outputs}
    narrowed = replace(problem, graph=replace(graph, outputs={**graph.outputs, **undeclared}),
                       facts=None, timings=problem.timings, _sourced=None)
    atoms, funcs = narrowed.atoms()
    if atoms.conflicts:
        return None
    return narrowed, atoms, decode(narrowed.graph, atoms), funcs


def _fixes(dims, alone, symbol: str) -> bool:
    """Whether a declared shape differs from the graph's own at an axis that mentions
    `symbol` there."""
    if alone is None or alone.dims is None or len(alone.dims) != len(dims):
        return False
    return any(d != a and symbol in a.symbols() for d, a in zip(dims, alone.dims))


def _from_onnx(source) -> bool:
    """The graph was read from an ONNX model (a ModelProto or its GraphProto)."""
    return type(source).__name__ in ("ModelProto", "GraphProto")
