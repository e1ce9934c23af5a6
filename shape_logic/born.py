"""Where a clash is born in the forward order of the graph: the first node whose prefix
(it and the nodes listed before it, with their outputs' claims) already conflicts.

A size that collides spreads through equal axes both ways: light ResNet-50 with one
convolution's pads one too many (15 wide for 14) meets the shortcut's 14 at the residual
Sum after it, and the Sums make every block's width one class, so the 15 reaches back to
the first block, the earliest place in the flow, and the diagnostic named a node there.
No node after the Sum is needed for the clash: the prefix ending at the Sum conflicts,
the one before it does not. The program is monotone in its sources (a node more derives
more), so the first such prefix is found by bisection: a whole-graph solve per step."""
from __future__ import annotations

from .describe import subject
from .explain import with_output_claims
from .limits import Abandoned
from .node_behind import node_source

# only where a clash has spread to this many places (below, the earliest place is near)
SPREAD = 20


def born_node(problem, conflicts, allowance=None):
    """The node where the clash is born (see the module), or None: a clash of few places,
    a graph with bodies, declarations that clash without any node, or a solve past the
    allowance."""
    if len({c.arguments[0] for c in conflicts}) < SPREAD:
        return None
    k = first_prefix(problem, lambda atoms: bool(atoms.conflicts), allowance, whole=True)
    return None if k is None or k < 0 else problem.graph.nodes[k]


def first_prefix(problem, holds, allowance=None, whole: bool = False) -> int | None:
    """The least k such that `holds(atoms)` of the graph cut after its node k (the nodes
    after it switched off, with their outputs' claims): -1 when no node is needed, None
    when the whole graph does not hold either (`whole`: known to hold), the graph has
    bodies, or a solve runs past the allowance. `holds` must be monotone in the nodes
    kept: bisection, a whole-graph solve a step."""
    if problem.graph.has_bodies:
        return None

    def upto(k: int) -> bool:
        return prefix_answer(problem, k, holds, allowance)

    try:
        if upto(-1):
            return -1
        lo, hi = 0, len(problem.graph.nodes) - 1
        if not whole and not upto(hi):
            return None
        while lo < hi:
            mid = (lo + hi) // 2
            if upto(mid):
                hi = mid
            else:
                lo = mid + 1
    except Abandoned:
        return None
    return lo


def prefix_answer(problem, k: int, read, allowance=None):
    """`read(atoms)` of the answer of the graph cut after its node k: the nodes after it
    switched off, with their outputs' claims (limits.Abandoned past `allowance`)."""
    graph = problem.graph
    off = with_output_claims(graph, {node_source(n.name) for n in graph.nodes[k + 1:]})
    atoms, _ = problem.atoms(off=off, allowance=allowance)
    try:
        return read(atoms)
    finally:
        atoms.release_control()


def born_place(graph, node, places):
    """Of `places` (in order), the first at `node` itself, else at a tensor only it reads
    or that it makes; None where there is none (a place at an input another node reads
    too is explained at whichever node its core ends: light Inception-v2's last Concat
    along the batch was explained first at the AveragePool beside it, its own error
    second)."""
    readers = graph.readers()

    def own(place) -> bool:
        tensor, name = subject(place)
        return name == node.name or tensor in node.outputs or (tensor in node.inputs and all(
            r.name == node.name for r in readers.get(tensor, [])))

    return next((p for p in places if subject(p)[1] == node.name),
                next((p for p in places if own(p)), None))
