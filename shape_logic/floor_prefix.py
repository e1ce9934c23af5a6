"""Floors found before the solve, from the part of the graph that makes them.

A solve that finds floors (encodings/floors.lp: a convolution over `s` with a kernel of 16
and no padding runs only where s >= 16) and leaves something they may settle is solved
again under them from the start (floor_rounds.py): the whole graph twice, for bounds that
come from a handful of nodes near its inputs - a vision transformer's patch convolution, a
speech model's feature extractor. So when the nodes that can give floors (those whose rule
files derive `nonempty/2`) and their ancestors are a small part of the graph, that part is
solved first, alone, and the graph's solve starts under the floors it finds.

Sound: every run of the graph runs that part (no body is in it), so what it requires the
graph requires; its inputs and initializers are the graph's own, its outputs undeclared. A
scope's copy of a floored name (`_i3_s` for `s`: scopes.py) is that name whenever its body
runs, so it gets the same floor. The solve under them finds floors as before (more, if any:
it goes on in rounds), and one under which the graph has a conflict gives way to the solve
without them (floor_rounds.answer_under), which explains the error as before.
"""
from __future__ import annotations

from dataclasses import replace

from .scopes import Scopes, scoped_name

# the part solved first is at most this share of the graph's nodes (else its solve costs
# about as much as the round it saves: a CNN's convolutions run through the whole graph)
MAX_SHARE = 0.25


def prefix_floors(problem) -> dict[str, int]:
    """symbol -> floor > 1 that the floor-making part of problem's graph requires of the
    inputs' names (and of each scope's copies of them); {} when that part is no small
    share of the graph, has bodies, or reads no symbolic dim but the batch."""
    graph = problem.graph
    part = _floor_part(graph, floor_ops(problem.rule_files))
    if not part or len(part) > MAX_SHARE * len(graph.nodes):
        return {}
    used = {t for n in part for t in n.inputs if t}
    if not any(d.symbols() for name, info in graph.inputs.items() if name in used
               and info.shape is not None and info.shape.dims is not None
               for d in info.shape.dims[len(info.shape.dims) > 1:]):
        # fixed sizes but for the batch (axis 0 of an input of rank 2 or more): every
        # floor of a window's axis is a number already, unless a Reshape takes the batch
        # into one (then the solve finds its floor and is solved again under it, as
        # without this part: only slower). HF ViT and Whisper spent 17 and 27 ms here
        # for nothing.
        return {}
    first = problem.of_part(replace(
        graph, nodes=part, outputs={}, annotations={}, body_nodes=[],
        initializers={k: v for k, v in graph.initializers.items() if k in used}))
    atoms, _ = first.fast_answer()
    try:
        if atoms.conflicts:  # (the graph's own solve says so, with its explanation)
            return {}
        return _with_copies(graph, {s: v for s, v in atoms.floors.items() if v > 1})
    finally:
        atoms.release_control()


def floor_ops(rule_files) -> set[str]:
    """The operators whose rule files derive `nonempty/2`, or build on one that does."""
    ops = {rf.op for rf in rule_files if rf.makes_floors}
    return ops | {rf.op for rf in rule_files if ops.intersection(rf.uses)}


def _floor_part(graph, ops: set[str]) -> list:
    """The nodes of those operators and their ancestors, in the graph's order ([] when one
    of them holds a body: what a body requires holds only when it runs)."""
    start = [n for n in graph.nodes if n.op in ops]
    if not start:  # (most graphs: no map of producers built for nothing)
        return []
    kept = graph.ancestors(start)
    part = [n for n in graph.nodes if n.name in kept]
    return [] if any(n.bodies for n in part) else part


def _with_copies(graph, floors: dict[str, int]) -> dict[str, int]:
    """The floors and the same for each scope's copy of a floored name."""
    scopes = set(Scopes(graph).ids.values()) if graph.body_nodes else ()
    return {**floors, **{scoped_name(s, k): v for s, v in floors.items() for k in scopes}}
