"""Constant folding with a size-aware decision per component (TFDeploy §2.4).

Folding a component replaces its nodes by its sinks' values, stored as initializers. That
can make a model much bigger: ConstantOfShape turns a 4-element shape into a weight tensor
of a million zeros. The decision, per component of the constant graph:

    fold  iff  elements(sinks) <= elements(inputs)      (the file does not grow)
           or  elements(sinks) <= small                  (a few KB at most; default 1024)

where inputs are the constant tensors the component reads (initializers, and tensor
attributes of its nodes, such as Constant's value). A component is folded whole or not at
all: a smaller sub-part is not searched for (TFDeploy's lowest-common-ancestor strategy
would be the refinement). Components not folded are left as they are - the executor
still computes them once before the first run (exec_rewrite.fold_constants).

Values are computed by the executor's NumPy kernels, in topological order. A shape-only
read (Shape of a runtime tensor whose shape the solve knows) is given a zero-strided
array of that shape: no data is made.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..exec_rewrite import fold_constants
from ..graph import NUMPY_DTYPES, Graph
from ..validate import validate
from .constant import Component, constant_graph

SMALL_ELEMENTS = 1024


@dataclass
class Decision:
    component: Component
    in_elements: int
    out_elements: int
    fold: bool
    reason: str


@dataclass
class Folding:
    graph: Graph
    decisions: list
    values: dict = field(default_factory=dict)  # sink tensor -> its value (folded ones)
    removed: list = field(default_factory=list)  # nodes folded away

    def summary(self) -> str:
        folded = [d for d in self.decisions if d.fold]
        return (f"{len(self.decisions)} constant component(s): {len(folded)} folded "
                f"({len(self.removed)} node(s) replaced by {len(self.values)} constant(s)), "
                f"{len(self.decisions) - len(folded)} kept")


def decide(graph: Graph, comp: Component, sizes: dict, small: int,
           not_tensors: dict | None = None) -> Decision:
    """Fold or keep one component, by the element counts above. `sizes` gives the
    element count of every tensor whose shape the solve knows as integers; `not_tensors`
    names the sinks that are sequences or optionals (no initializer holds one: kept)."""
    ins = sum(graph.initializers[t].data.size for t in comp.inputs
              if t in graph.initializers and graph.initializers[t].data is not None)
    ins += sum(v.size for n in comp.nodes for v in n.attrs.values()
               if isinstance(v, np.ndarray))
    if not comp.sinks:
        return Decision(comp, ins, 0, True, "nothing reads it: removed")
    held = [t for t in comp.sinks if t in (not_tensors or {})]
    if held:
        return Decision(comp, ins, -1, False,
                        f"{held[0]!r} is {not_tensors[held[0]]} (no initializer holds one): kept")
    unknown = [t for t in comp.sinks if t not in sizes]
    if unknown:
        return Decision(comp, ins, -1, False, f"size of {unknown[0]!r} unknown: kept")
    outs = sum(sizes[t] for t in comp.sinks)
    if outs <= ins:
        return Decision(comp, ins, outs, True, f"{outs} <= {ins} input elements: folded")
    if outs <= small:
        return Decision(comp, ins, outs, True, f"{outs} <= {small} elements: folded")
    return Decision(comp, ins, outs, False,
                    f"{outs} elements > {ins} input elements and > {small}: kept")


def fold(source, small: int = SMALL_ELEMENTS, rules=()) -> Folding:
    """Solve the graph, find its constant components, decide and evaluate each one."""
    from ..executor import ExecutionError, Step, _kernel_failure
    from ..kernels import graph_kernel
    from ..progress import phase, steps
    from ..solver import solve

    sol = solve(source, rules=rules)
    if sol.status == "error":
        raise ExecutionError(f"shape error: {sol.diagnostics[0].message}")
    graph = sol.graph
    order = validate(graph)
    sizes = {}
    for t in graph.tensors():
        dims = sol.dims(t)
        if dims is not None and all(d.is_int for d in dims):
            sizes[t] = int(np.prod([d.value for d in dims], dtype=np.int64))
    known = {t for t in sizes}
    with phase("constant subgraph"):
        cg = constant_graph(graph, order, known_shape=known.__contains__)
    others = {t: "a sequence" if sol.sequence(t) is not None else "an optional"
              for t in graph.tensors()
              if sol.sequence(t) is not None or sol.optional(t) is not None}
    decisions = [decide(graph, c, sizes, small, others) for c in cg.components]
    out = Folding(graph, decisions)
    for d in steps(decisions, "folding components"):
        if not d.fold:
            continue
        constants = {t: graph.initializers[t].data for t in d.component.inputs
                     if t in graph.initializers}
        for t in d.component.shape_reads:
            dt = NUMPY_DTYPES.get(sol.dtype(t) or "f32", np.float32)
            constants[t] = np.broadcast_to(np.zeros((), dt), [e.value for e in sol.dims(t)])
        steps = [Step(n, graph_kernel(graph, n),
                      [f'output {k} of {n.op} node "{n.name}"' for k in range(len(n.outputs))],
                      []) for n in d.component.nodes]
        fold_constants(steps, constants, {}, lambda node, args, e: ExecutionError(
            _kernel_failure(node, args, e)))
        for t in d.component.sinks:
            out.values[t] = np.asarray(constants[t], order="C")  # (a scalar stays one)
        out.removed.extend(d.component.nodes)
    return out

