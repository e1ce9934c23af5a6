"""The fast solve again under the floors of symbols it found (encodings/floors.lp: a
convolution over s with a kernel of 10 runs only where s >= 10; asp/floors.py: the
arithmetic under them).

The floors are found by the solve itself (a convolution's output axis must be >= 1), so
they are known only once it is done: the arithmetic that ran before could not use them,
and clingo does not compute an @-function again. So a solve that finds floors, and leaves
something they may settle, is followed by one under them, from the start; as long as that
finds new ones (a floor may make another axis's value one of a single symbol), at most
MAX_ROUNDS times.
"""
from __future__ import annotations

import clingo

# solves under floors after the first
MAX_ROUNDS = 2


def answer_under(problem, floors: dict, cancel=None, allowance: int | None = None):
    """(atoms, funcs): the fast solve of `problem` under `floors` found before it
    (floor_prefix.py), unless it has floors or ceilings of its own; one that shows a
    conflict is solved again without them, as a round's is (_conflicted). `allowance`: an
    optional solve's computations (Functions), each grounding's."""
    if not floors or problem.floors or problem.ceilings:
        return problem.fast_answer(cancel=cancel, allowance=allowance)
    problem.floors = dict(floors)
    floored = problem.fast_answer(cancel=cancel, allowance=allowance)
    if not floored[0].conflicts:
        return with_bounds_in_force(floored[0], None, problem), floored[1]
    problem.floors = {}
    plain = problem.fast_answer(cancel=cancel, allowance=allowance)
    return _conflicted(problem, plain, floored, (dict(floors), problem.ceilings),
                       _texts(floors, {}))


def under_floors(problem, atoms, funcs, cancel=None, allowance: int | None = None):
    """(atoms, funcs): the fast solve `atoms` of `problem`, or the last one under the floors
    it found (problem.floors then holds them; and the ceilings of If branches' own names,
    problem.ceilings: encodings/conditions.lp). A solve under floors that shows a conflict
    the one before did not is kept: the graph has no run at all (_conflicted)."""
    for _ in range(MAX_ROUNDS):
        new = {s: v for s, v in atoms.floors.items() if v > problem.floors.get(s, 1)
               and not _kept(atoms, s, lambda n, v=v: n >= v)}
        tops = {s: v for s, v in atoms.ceilings.items() if v < problem.ceilings.get(s, v + 1)
                and not _kept(atoms, s, lambda n, v=v: n <= v)}
        floors, ceilings = {**problem.floors, **new}, {**problem.ceilings, **tops}
        if not (new or tops) or atoms.conflicts or not (
                may_settle(atoms, problem.graph) or _settles_one_of(
                    atoms, new.keys() | tops.keys(), floors, ceilings)):
            break
        before = problem.floors, problem.ceilings
        problem.floors, problem.ceilings = floors, ceilings
        floored = problem.fast_answer(cancel=cancel, allowance=allowance)
        if floored[0].conflicts:
            under = problem.floors, problem.ceilings
            problem.floors, problem.ceilings = before
            return _conflicted(problem, (atoms, funcs), floored, under, _texts(new, tops))
        atoms.release_control()
        atoms, funcs = with_bounds_in_force(floored[0], atoms, problem), floored[1]
    return atoms, funcs


def with_bounds_in_force(atoms, before, problem):
    """`atoms`, a solve under problem.floors and .ceilings, with those among its own: they
    are the graph's requirements whether or not it derives them again, with what required
    them in `before` (the solve that found them; None: not known). A floor found from an
    equation the floor then settles is not found again: x [3, s] sliced [-2:2:2] gives
    E = max(0, (min(2, s) - max(0, s - 2) + 1)//2) columns, and an output declared 2*E
    made E = 2*E, so s >= 4; under it both are 0, the equation was gone, and so was the
    floor: the output was [3, 0] with nothing required, where s = 3 runs with 1 (fuzz
    --kind ops --narrowing --seed 562, graph 35)."""
    for s, v in problem.floors.items():
        if v > atoms.floors.get(s, 1):
            atoms.floors[s] = v
            if before is not None and s not in atoms.floor_from:
                atoms.floor_from[s] = set(before.floor_from.get(s, ()))
    for s, v in problem.ceilings.items():
        if v < atoms.ceilings.get(s, v + 1):
            atoms.ceilings[s] = v
    return atoms


def _conflicted(problem, plain, floored, under: tuple, bounds: dict):
    """(atoms, funcs) where the solve `floored` under bounds the graph requires (`under`:
    its floors and If branches' ceilings; `bounds`: the new ones as text) shows a
    conflict: the solve `plain` (under problem.floors and .ceilings) when it shows one
    too, explained as it is; else the floored one. The graph then has no run at all: what
    the plain solve shows holds only where a node cannot run (x [s] pooled by 2 and
    broadcast back against x: equal only at s = 1, where the pooling has no window).
    Explaining then takes the bounds too (problem.floors_everywhere); `under_bounds` says
    which they were."""
    if plain[0].conflicts:
        floored[0].release_control()
        return plain
    plain[0].release_control()
    problem.floors, problem.ceilings = under
    floored[0].under_bounds = bounds
    floored[0].floors = dict(problem.floors)  # (not those of colliding values)
    problem.floors_everywhere = True
    return floored


def _texts(floors: dict, ceilings: dict) -> dict:
    """symbol -> its bound as text (">= 2", "<= 4")."""
    return {**{s: f">= {v}" for s, v in floors.items()},
            **{s: f"<= {v}" for s, v in ceilings.items()}}


# the nodes requiring the bounds that a note names (tf2onnx's NASNet has 150 such)
NOTE_NODES_MOST = 6


def explained_under_bounds(problem, atoms, diagnostics) -> None:
    """Diagnostics of a graph that conflicts only under the bounds it requires (_conflicted)
    say so, and their cores hold the nodes that require them: the convolutions and
    poolings (floors) over the bounded symbols, and the If nodes (ceilings of their
    branches' own names)."""
    if not atoms.under_bounds:
        return
    from .describe import core_entries  # (explaining only)
    from .floor_prefix import floor_ops

    ops = floor_ops(problem.rule_files) | {"If"}
    names = set(atoms.under_bounds)
    bounded = {t for (t, _), values in atoms.dims.items()  # (tensors with a bounded name)
               if any(names & e.symbol_set() for e in values)}
    origins = [n for n in problem.graph.nodes
               if n.op in ops and any(t in bounded for t in n.inputs if t)]
    bounds = ", ".join(f"{s} {b}" for s, b in sorted(atoms.under_bounds.items()))
    named = [f'{n.op} "{n.name}"' for n in origins]
    if len(named) > NOTE_NODES_MOST:  # (all of them are in the core)
        named[NOTE_NODES_MOST - 1:] = [f"{len(named) - NOTE_NODES_MOST + 1} more in the core"]
    nodes = ", ".join(named) or "its nodes"
    note = (f"every run of the graph has {bounds} ({nodes} cannot run otherwise), and "
            f"there the graph has this error: it has no run at all")
    entries = core_entries(problem.graph, [clingo.Function("src", [
        clingo.Function("node"), clingo.String(n.name)]) for n in origins])
    for d in diagnostics:
        d.notes.append(note)
        d.core += [e for e in entries if e not in d.core]


def _kept(atoms, s: str, holds) -> bool:
    """s is bound to an integer that the bound holds of: the bound adds nothing (an If on
    `x.size(1) == 1` whose then-branch squeezes that axis binds its own name to 1, as the
    ceiling 1 says). One that breaks it stays: under it the body cannot run."""
    return any(e.is_int and holds(e.value) for e in atoms.binds.get(s, ()))


def _settles_one_of(atoms, bounded, floors: dict, ceilings: dict) -> bool:
    """A broadcast's requirement `E in {1, N}` (broadcast.lp's one_or) of a symbol the new
    bounds (`bounded`) bound, that they settle: under all of them (`floors`, `ceilings`) E
    is provably not 1, so N (a binding: x [1, 1, s] convolved by a kernel of 5, s >= 5, and
    added to a [7]: s = 7), or no value (added to a [3]: the graph has no run); or provably
    not N, so 1. Every axis may have a value already. (SAM's vision encoder, h >= 8, was
    solved again for `h//8 in {1, 8}`, which h >= 8 leaves as it is: 0.15 s of 0.46.)"""
    from .asp.floors import Floors
    from .symbolic.bounds import not_one, not_zero

    under = Floors(floors, ceilings)
    return any(not_one(e, under.bounds) or any(not_zero(e - n, under.bounds) for n in ns)
               for e, ns in atoms.one_or.items() if not e.symbol_set().isdisjoint(bounded))


def may_settle(atoms, graph) -> bool:
    """Whether the floors may settle something the solve leaves open: an axis of known rank
    without a value in the inputs' names alone (none, or only names no input gives: a
    declared output's that the graph does not bind, a branch's own, `Ify_7_dim_1` beside
    an If's `min(4, _i1_t)`). (A model whose every axis is known, a UNet's pooled sizes,
    is not solved again; nor for a clamp they would drop, `max(0, f - 1)` of frames f >= 2,
    where it is right as it is: Wav2Vec2's TorchScript export.)"""
    inputs = graph.input_symbols()
    for t, ranks in atoms.rank.items():
        if len(ranks) == 1:
            (r,) = ranks
            for i in range(r):
                values = atoms.dims.get((t, i))
                if not values or not any(e.symbol_set() <= inputs for e in values):
                    return True
    return False
