"""Errors out of sight behind the ones found (diagnose.py, diagnose_local.py).

Each error found is switched off by its node before the next is looked for (describe.py),
and a node switched off leaves the rest of the graph without its output's shape, rank
and all: an error after it shows no more. Two MLP weights each a row too wide ([33, 64]
on a stream of 32) were one diagnostic, the second block's error hidden behind the first
block's MatMul (the first fixed, the second showed). So once no error is left, the graph
is solved again with those nodes still off but their outputs' dtypes and ranks given (as
context: `src(ctx, T, rank)`), and what conflicts then is explained in turn, each in its
neighbourhood (diagnose_local.explained_at), the place nearest to the odd value first.
An error that only follows from one found, from a size its node computed (a Concat along
the wrong axis, the next Concat meeting twice the batch), does not show: the sizes stay
cut. (Switching the nodes on again, with their cores' declared sizes off, showed those
consequences as new errors: Inception v1's one wrong Concat became five diagnostics.)"""
from __future__ import annotations

from dataclasses import replace

from .decode import decode
from .facts import graph_facts
from .limits import Abandoned
from .neighbourhood import context_facts
from .place_order import near_odd_value, places_in_order


def more_errors(problem, atoms, decoded, off: set, room: int, allowance):
    """(diagnostics, the sources they switch off) of at most `room` errors past those
    found, which `off` switches off; `atoms`, `decoded`: the graph's own solve (`decoded`
    None: decoded here, once a node is switched off)."""
    from .diagnose_local import explained_at

    graph = problem.graph
    out: list = []
    blocked = set(off)
    facts = None  # (the graph's facts, written once for every round)
    while len(out) < room:
        outputs = _outputs_of_nodes(graph, blocked)
        if not outputs:
            break
        if decoded is None:
            decoded = decode(graph, atoms)
        if facts is None:
            facts = graph_facts(graph, foreign=problem.foreign)
        variant = _ranks_kept(problem, facts, atoms, decoded, outputs)
        rest, _ = variant.atoms(off=blocked)
        if not rest.conflicts:
            break
        places = places_in_order(graph, rest.conflicts, rest.binds)
        place = near_odd_value(graph, rest.conflicts, places, blocked) or places[0]
        values = rest.value_loader() if rest.value_loader is not None else {}
        try:
            found = explained_at(variant, place, (rest, decode(graph, rest), values),
                                 blocked, allowance)
        except Abandoned:
            found = None
        rest.release_control()
        if found is None or not found[1]:
            break
        out.append(found[0])
        blocked |= found[1]
    return out, blocked - set(off)


def _outputs_of_nodes(graph, off: set) -> list[str]:
    """The outputs of the nodes `off` switches off."""
    nodes = {s.arguments[1].string for s in off if s.arguments[0].name == "node"}
    return sorted({t for n in graph.nodes if n.name in nodes for t in n.outputs if t})


def _ranks_kept(problem, facts: str, atoms, decoded, outputs: list):
    """`problem` (its graph's `facts`) with `outputs` given their dtypes and ranks, as
    `atoms` and `decoded` have them, where unique."""
    plain, sourced = context_facts(outputs, atoms, decoded, {}, dims=False)
    return replace(problem, facts=facts + plain, context=problem.context + sourced,
                   _sourced=None)
