"""Explaining each conflict of a large graph in the smallest neighbourhood where it shows
(neighbourhood.py), not in the whole graph (diagnose.py, past LOCAL_FROM_NODES nodes, or
where the whole graph runs past the allowance)."""
from __future__ import annotations

import time

from .decode import decode
from .describe import describe, subject
from .diagnose import MAX_ERRORS, note_remaining, tensors_near, with_other_branch
from .diagnostics import Diagnostic
from .explain import CoreFinder, distances_from, with_output_claims
from .limits import Abandoned
from .look_past import more_errors
from .neighbourhood import graph_distances, local_problem, radii
from .node_behind import one_node_behind
from .own_reason import as_own_reason
from .born import born_node, born_place
from .place_order import near_odd_value, places_in_order
from .scopes import other_branch


def diagnose_locally(problem, atoms, decoded, hidden, allowance, own
                      ) -> list[Diagnostic] | None:
    """Each conflict explained in the smallest neighbourhood where it shows (neighbourhood.py);
    None when one only shows in the whole graph (then the whole graph explains it).
    `own`: _without_claims's. Its answer gives the neighbourhoods their context: both
    colliding values of a wrong claim reach far upstream, and the context is left open
    wherever values collide (idx declared [k, 4] for NonZero's [k, 3]: its rank 4 ran back
    to x, and no neighbourhood of idx had the 3). Where all errors are the claims', the
    places at the claimed tensors come first."""
    graph = problem.graph
    out: list[Diagnostic] = []
    offs: list[set] = []  # the sources that switch each diagnostic's error off
    blocked: set = set()
    claimed: frozenset = frozenset()
    if own is not None:
        atoms_given, decoded, values = own[1], decode(graph, own[1]), own[2]
        if not own[1].conflicts:
            claimed = frozenset(graph.outputs) | frozenset(graph.annotations)
    else:
        atoms_given, values = atoms, {}
    remaining = places_in_order(graph, atoms.conflicts, atoms.binds, claimed)
    conflicts = atoms.conflicts
    context = (atoms_given, decoded, values)
    born = born_node(problem, conflicts, allowance)  # (where a clash that spread began)
    while remaining and len(out) < MAX_ERRORS:
        # A size required backward shows first where it ends, far from its cause: a mutated
        # BART's encoder weight one row too many (33 for the hidden 32) collided first at
        # the embeddings' tables, 110 places before its MatMul, where no neighbourhood was
        # explained in the allowance; T5's was explained there against the context, at a
        # node of the decoder, and again at the next. So the place nearest to where the
        # odd value is declared comes first (place_order.near_odd_value), then the
        # earliest, then the latest.
        odd = near_odd_value(graph, conflicts, remaining, blocked)
        # ... and before all, the place at the node where a clash that spread was born
        # (born.py), for the first error, if it is explained there (at that node)
        at_born = born_place(graph, born, remaining) if born is not None and not out else None
        found = None
        if at_born is not None:
            try:
                found = explained_at(problem, at_born, context, blocked, allowance)
            except Abandoned:
                pass
            if found is not None and not (found[0].place or "").endswith(f'"{born.name}"'):
                found = None  # (explained at another node: the usual order decides)
        for place in dict.fromkeys([p for p in (odd, remaining[0], remaining[-1])
                                    if p and p != at_born and found is None]):
            try:
                found = explained_at(problem, place, context, blocked, allowance) or found
            except Abandoned:
                found = found or Abandoned
            if found not in (None, Abandoned):
                break
        if found is Abandoned:
            raise Abandoned()
        if found is None:
            return None
        diag, off, local = found
        out.append(diag)
        offs.append(set(off))
        if not off:  # nothing of the graph itself to switch off: stop here
            break
        blocked |= with_output_claims(graph, off)  # (its node's outputs' claims too)
        # With the errors found so far switched off, which places still conflict? Those
        # inside the neighbourhood are settled there; only if some remain (or lie outside)
        # is the whole graph solved again.
        try:
            settled, _ = local.atoms(off=blocked, allowance=allowance)
        except Abandoned:  # (what is explained stands; the rest is noted as remaining)
            break
        still = {c.arguments[0] for c in settled.conflicts}
        inside = set(local.graph.tensors()) | {n.name for n in local.graph.nodes}
        remaining = [p for p in remaining if p in still or not (set(subject(p)) & inside)]
        if remaining or hidden:
            t0 = time.perf_counter()
            rest, funcs = problem.atoms(off=blocked)
            remaining = places_in_order(graph, rest.conflicts, rest.binds, claimed)
            conflicts = rest.conflicts
            hidden = funcs.halted
            problem.timings["rescan"] = problem.timings.get("rescan", 0) + \
                time.perf_counter() - t0
    one = one_node_behind(problem, out, offs)
    if one is not None:  # (one node's mistake: node_behind.py)
        (out, blocked), remaining = one, []
    if not remaining and blocked and len(out) < MAX_ERRORS:  # (out of sight: look_past)
        more, more_off = more_errors(problem, atoms_given, decoded, blocked,
                                     MAX_ERRORS - len(out), allowance)
        out += more
        blocked |= more_off
    note_remaining(out, remaining)
    if not remaining and blocked:
        problem.switched_off = frozenset(blocked)
    return out


def explained_at(problem, place, context, blocked, allowance):
    """(diagnostic, sources it switches off, neighbourhood) of the conflict at `place`,
    explained in the smallest neighbourhood where it shows (`context`: the answer, decoded
    and values the neighbourhoods take around them); None when none shows it or no core
    is found. Abandoned past the allowance."""
    atoms_given, decoded, values = context
    tensor, node = subject(place)
    dist = graph_distances(problem.graph, tensor, node)
    local = None
    for radius in radii(dist):
        candidate = local_problem(problem, atoms_given, decoded, dist, radius, values)
        # (a neighbourhood's solve is optional: within the allowance, as the core's are - a
        # neighbourhood of tf2onnx's NASNet whose boundary sizes collide flooded 200k
        # clashes between fresh names for 25-40 s a grounding)
        seen, _ = candidate.atoms(off=blocked, allowance=allowance)
        if any(c.arguments[0] == place for c in seen.conflicts):
            local = candidate
            break
    if local is None:
        return None
    partner = other_branch(seen, place)  # (its conflict is explained with this one)
    # the nodes' own reasons that may be behind a clash (own_reason.py)
    reasons = [] if place.name == "node" else sorted(
        {c.arguments[0] for c in seen.conflicts if c.arguments[0].name == "node"}, key=str)
    finder = CoreFinder(local, [place] + ([partner[3].arguments[0]] if partner else []) +
                        reasons, allowance)
    active = finder.sources - blocked
    distance = distances_from(local.graph, tensor, node)
    # the graph's own error first, as _diagnose has it: a core without the declared
    # outputs and annotations if the conflict has one
    claims = {s for s in active if s.arguments[0].name in ("ann", "output")}
    core, minimal = finder.minimal_core(place, distance, active - claims) if claims \
        else (None, False)
    if core is None:
        core, minimal = finder.minimal_core(place, distance, active)
    if core is None:
        return None
    place, core, minimal = as_own_reason(finder, local.graph, place, core, minimal, reasons)
    sub_atoms = finder.view(core, tensors_near(local.graph, core))
    diag, off = describe(local, place, core, sub_atoms, finder, minimal,
                         whole=problem.graph)
    off |= with_other_branch(local.graph, seen, place, diag, finder, active)
    return diag, off, local
