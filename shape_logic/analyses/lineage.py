"""Lineage: which inputs, annotations, initializers and nodes a tensor's shape (or one
axis) depends on - `shape-logic why GRAPH TENSOR [AXIS]`.

The derivation facts come from the solve itself: the program is ground in explain mode
(every source an `#external act(S)`, as diagnostics do), so no atom that a source
supports is simplified into a fact, and clingo's observer records each ground rule
`head :- body`. Each rule is an edge head -> body atom. What a position depends on is
reachability from its `dim`/`rank` atoms, left-recursive from the bound seed:

    dep(X, Y) <= edge(X, Y)
    dep(X, Y) <= dep(X, Z) & edge(Z, Y)        % asked as dep(goal, Y)

A graph has ~130 ground-rule edges per node, which is more than pyDatalog serves well
(1,000 nodes: 21 s; see docs/DESIGN.md), so by default the same relation is solved by
clingo (`dep(Y) :- goal(Y). dep(Y) :- dep(X), edge(X, Y).`, 5-7x faster);
`engine="pydatalog"` keeps the pyDatalog form.

The atoms reached are read back: `act(src(Kind, Name, Part))` is a declaration (input,
initializer, output or annotation: its rank, dims, dtype or data), `op(N, _)` a node,
`dim(T, I, _)` an axis linked with the one asked about, `bind(S, V)` a binding used.

Sound: the program is monotone and every ground rule's body holds when every source is
on, so each item listed takes part in some derivation of a value at that position
(why-provenance), and a declaration or node not listed cannot change what the solver
derives there.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import clingo

from ..errors import InputError
from ..limits import allowance
from ..solver import Problem
from .datalog import KnowledgeBase

RULES = """
dep(X, Y) <= edge(X, Y)
dep(X, Y) <= dep(X, Z) & edge(Z, Y)
"""
CLINGO_RULES = "dep(Y) :- goal(Y).\ndep(Y) :- dep(X), edge(X, Y).\n"
GOAL = 0  # clingo's program atoms are numbered from 1
KIND_NAMES = {"input": "inputs", "init": "initializers", "output": "outputs",
              "ann": "annotations"}


class _Rules:
    """clingo Observer: every ground rule as (head atoms, positive body atoms)."""

    def __init__(self):
        self.edges: list[tuple[int, int]] = []

    def rule(self, choice, head, body):
        self.edges.extend((h, b) for h in head for b in body if b > 0)

    def weight_rule(self, choice, head, lower_bound, body):
        self.edges.extend((h, b) for h in head for b, _ in body if b > 0)


@dataclass
class Lineage:
    tensor: str
    axis: int | None
    declarations: dict = field(default_factory=dict)  # "inputs.x" -> sorted parts
    nodes: list = field(default_factory=list)  # (name, op), in graph order
    axes: list = field(default_factory=list)  # (tensor, axis) linked with the one asked
    bindings: list = field(default_factory=list)  # symbols whose binding was used

    def to_json(self) -> dict:
        return {"tensor": self.tensor, "axis": self.axis,
                "declarations": [{"place": p, "parts": parts}
                                 for p, parts in self.declarations.items()],
                "nodes": [{"name": n, "op": op} for n, op in self.nodes],
                "axes": [f"{t}[{i}]" for t, i in self.axes],
                "bindings": self.bindings}


def reach(edges, seeds, engine: str = "clingo") -> set:
    """The atoms reachable from `seeds` along `edges` (pairs of clingo atom numbers)."""
    if engine == "pydatalog":
        kb = KnowledgeBase(RULES)
        kb.facts("edge", edges)
        kb.facts("edge", ((GOAL, lit) for lit in seeds))
        return kb.column("dep", GOAL, None)
    facts = "".join(f"edge({h},{b}).\n" for h, b in edges)
    facts += "".join(f"goal({s}).\n" for s in seeds)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], CLINGO_RULES + facts)
    ctl.ground([("base", [])])  # a positive program: the grounder computes it all
    return {a.symbol.arguments[0].number for a in ctl.symbolic_atoms.by_signature("dep", 1)}


def lineage(source, tensor: str, axis: int | None = None, rules=(),
            engine: str = "clingo", spent: int | None = None) -> Lineage:
    """`spent`: the computations of the graph's own solve (Solution.computations), which
    bound the lineage's grounding; without it the graph is solved here to count them."""
    problem = Problem.load(source, rules)
    graph = problem.graph
    if tensor not in graph.tensors():
        raise InputError(f"no tensor {tensor!r} in the graph", graph.path)
    # the program with every source an assumption computes without the bindings found so
    # far, and on some graphs that runs away (a Loop and three Scans of five nodes: 250 s
    # and 5.7 GB): it may make a bounded multiple of the computations of the graph's own
    # solve (limits.allowance, as explaining does), past which it is abandoned (Abandoned)
    if spent is None:
        spent = problem.atoms()[1].calls
    observer = _Rules()
    ctl, _ = problem.control("#external act(S) : source(S).\n", observer=observer,
                             allowance=allowance(spent))
    symbol = {a.literal: a.symbol for a in ctl.symbolic_atoms}
    seeds = [lit for lit, s in symbol.items() if _about(s, tensor, axis)]
    reached = reach(observer.edges, seeds, engine)
    out = Lineage(tensor, axis)
    node_names: set = set()
    axes: set = set()
    for lit in reached:
        s = symbol.get(lit)
        if s is None or s.type != clingo.SymbolType.Function:
            continue  # an auxiliary atom of the grounding
        args = s.arguments
        if s.name == "act" and args[0].name == "src":
            kind, name, part = args[0].arguments
            if kind.name == "node":
                node_names.add(name.string)
            else:
                place = f"{KIND_NAMES.get(kind.name, kind.name)}.{name.string}"
                out.declarations.setdefault(place, set()).add(part.name)
        elif s.name == "op" and len(args) == 2:
            node_names.add(args[0].string)
        elif s.name == "dim" and len(args) == 3 and args[0].type == clingo.SymbolType.String:
            axes.add((args[0].string, args[1].number))
        elif s.name == "bind" and len(args) == 2:
            out.bindings.append(args[0].string)
    out.declarations = {p: sorted(v) for p, v in sorted(out.declarations.items())}
    out.nodes = [(n.name, n.op) for n in graph.nodes if n.name in node_names]
    order = {t: i for i, t in enumerate(graph.tensors())}
    out.axes = sorted((a for a in axes if a != (tensor, axis)),
                      key=lambda a: (order.get(a[0], len(order)), a[1]))
    out.bindings = sorted(set(out.bindings))
    return out


def _about(s: clingo.Symbol, tensor: str, axis: int | None) -> bool:
    """A dim (or, for the whole shape, rank) atom of `tensor`."""
    if s.type != clingo.SymbolType.Function or not s.arguments:
        return False
    first = s.arguments[0]
    if first.type != clingo.SymbolType.String or first.string != tensor:
        return False
    if s.name == "dim" and len(s.arguments) == 3:
        return axis is None or s.arguments[1].number == axis
    return s.name == "rank" and len(s.arguments) == 2 and axis is None


# a text line lists at most this many items; the rest are counted (--all, JSON: all)
SHOWN = 20


def render(lin: Lineage, shape: str | None, limit: int | None = SHOWN) -> str:
    """The text of `why`: each list cut at `limit` items (None: whole), the rest counted
    (DenseNet-121's output depends on ~900 declarations: one line of 50,000 characters)."""
    what = lin.tensor if lin.axis is None else f"{lin.tensor}[{lin.axis}]"
    lines = [f"{what} (of {lin.tensor} : {shape or '?'}) depends on:"]
    cut = False

    def listed(items: list) -> str:
        nonlocal cut
        if limit is not None and len(items) > limit:
            cut = True
            return f"{', '.join(items[:limit])} ... and {len(items) - limit} more"
        return ", ".join(items) or "none"

    decls = [f"{p} ({', '.join(parts)})" for p, parts in lin.declarations.items()]
    lines.append(f"  declarations: {listed(decls)}")
    nodes = [f'{op} "{n}"' for n, op in lin.nodes]
    lines.append(f"  nodes:        {listed(nodes)}")
    axes = [f"{t}[{i}]" for t, i in lin.axes]
    lines.append(f"  linked axes:  {listed(axes)}")
    if lin.bindings:
        lines.append(f"  bindings:     {listed(list(lin.bindings))}")
    if cut:
        lines.append("  (--all or --format json lists every one)")
    return "\n".join(lines)
