"""Where the graph fixes an input's size: the node at which a binding of an input's names
("with height = 2, width = 2" under a diagnostic) is born.

A U-Net with one down-sampling convolution's stride doubled joins its skip connections at
sizes that agree only when height = 2 (`2*((height + 3)//8)` against `height`); at that
size a later pool's output is empty, and the diagnostic said so "with height = 2", a value
the user never wrote. The node that left no other size is where the binding is born: the
first prefix of the graph (born.first_prefix) whose answer binds the names to the same
values. The note names it and its inputs' shapes before it, as the graph gives them
there."""
from __future__ import annotations

from .born import first_prefix, prefix_answer
from .decode import Resolver, decode
from .limits import Abandoned
from .shapes import format_shape
from .symbolic.expr import Expr

# the inputs' shapes shown, at most (a Concat of many)
MAX_INPUTS = 3
# a bisection step is a solve of the graph: ~11 of them at this size (~0.3 s each)
MAX_NODES = 2000


def origin_note(problem, bindings: dict, allowance=None) -> str | None:
    """A note on where `bindings` (input name -> its value, an Expr) are born, or None
    (no single node does it, the graph has bodies, a solve past the allowance)."""
    graph = problem.graph
    if not bindings or len(graph.nodes) > MAX_NODES:
        return None
    # (several diagnostics of one graph often bind the same names alike: asked once)
    known = vars(problem).setdefault("_binding_origins", {})
    key = frozenset(bindings.items())
    if key not in known:
        known[key] = _origin_note(problem, bindings, allowance)
    return known[key]


def _origin_note(problem, bindings: dict, allowance) -> str | None:
    graph = problem.graph

    def binds(atoms) -> bool:  # (the bindings as the answer resolves them)
        resolve = Resolver(atoms.binds)
        return all(name in atoms.binds and resolve(Expr.sym(name)) == value
                   for name, value in bindings.items())

    k = first_prefix(problem, binds, allowance)
    if k is None or k < 0:
        return None
    node = graph.nodes[k]
    try:  # (the shapes before it: the graph cut after the node before)
        before = prefix_answer(problem, k - 1, lambda atoms: decode(graph, atoms).shapes,
                               allowance)
    except Abandoned:
        return None
    named = [t for t in dict.fromkeys(node.inputs) if t]
    shown = named[:MAX_INPUTS]
    inputs = ", ".join(f"`{t}` : {format_shape(before[t].parts)}" if before.get(t) is not None
                       else f"`{t}` : ?" for t in shown)
    more = len(named) - len(shown)
    names = ", ".join(f"{n} = {v}" for n, v in sorted(bindings.items()))
    return (f'{names}: the only {"sizes" if len(bindings) > 1 else "size"} for which '
            f'{node.op} "{node.name}" holds (its inputs {inputs}'
            f'{f" and {more} more" if more > 0 else ""})')
