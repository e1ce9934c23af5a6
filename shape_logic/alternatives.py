"""Ambiguity as answer sets: the shapes each case of an open broadcast gives.

The fast mode prints what holds in every case (`max(m, n)` for `[n] + [m]`: exact
in each). When such a value appears, the program is solved again with
encodings/alternatives.lp, which makes one answer set per consistent choice of
case (n = m, n = 1 or m = 1 per pair; a MatMul operand of unknown rank a vector
or a matrix); each answer set is decoded, and the
tensors whose shape differs between them list their alternatives; the bindings of
each case are listed with them ("cases"). At most
MAX_MODELS answer sets are read (the solution then says it was capped), graphs
above MAX_NODES are not enumerated, and the grounding of all cases at once (where
cases that contradict each other meet) gets a bounded allowance of computations.
"""
from __future__ import annotations

import time

from .asp.program import ENCODINGS_DIR
from .answer_set import Atoms
from .decode import decode
from .limits import Abandoned, allowance

MAX_MODELS = 16
MAX_NODES = 2000


def alternatives_seconds(spent: float) -> float:
    """How long the cases may take, after the graph's own solve took `spent` seconds: a few
    times that, and at least a second. Their grounding computes without the bindings known
    so far (they differ between cases), and in graphs with bodies that surely run the
    spellings of one symbol (_i1_s0 beside s0) combine into new values before they meet:
    a control-flow fuzz graph solved in 1.1 s took 36 s more for its cases. Alternatives are
    an extra; their absence is said ("alternatives capped"). At most ALTERNATIVES_CAP all
    the same: a control-flow fuzz graph (--kind control --seed 94, graph 1297) ground for
    26 s and then spent 139 s on its cases."""
    return max(1.0, min(5 * spent, ALTERNATIVES_CAP))


ALTERNATIVES_CAP = 30.0  # seconds for the cases, whatever the graph's own solve took


def may_be_ambiguous(shapes: dict, constraints: list, decoded) -> bool:
    """A max of two values neither of which is an integer, in a shape or a constraint
    (`shapes`, `constraints`: their text; `decoded`: their expressions), may come from an
    open broadcast: @bcast gives max(n, m) only for two dims it cannot decide (an integer
    other than 1 decides, 1 yields the other). A max of one value and integers is a clamp
    (Range's length max(0, ..), a Slice's bounds), which no case opens: a wav2vec2 export
    whose only max was its Range's spent 3/4 of its solve on one case."""
    if not any("max(" in s for s in list(shapes.values()) + constraints):
        return False
    seen: set = set()
    exprs = [e for pair in decoded.met_constraints for e in pair]
    for shape in decoded.shapes.values():
        if shape is not None and id(shape) not in seen:  # (shapes are shared objects)
            seen.add(id(shape))
            exprs += [d for part in shape.parts if not isinstance(part, str) for d in part]
    return any(_open_max(e) for e in set(exprs))


def _open_max(e) -> bool:
    """Whether `e` holds a max with two arguments or more of one symbol each: the cases
    split only broadcasts of two symbols (alternatives.lp's bc_open), printed as their
    max after the bindings. (Nystromformer's max(batch, batch*seq//8), a batch against a
    Reshape's rows, opens none: its cases took 140 ms to find nothing.)"""
    for atom in e.atoms():
        if atom.kind == "sym":
            continue
        if atom.kind == "max" and sum(len(a.symbols()) == 1 for a in atom.args) >= 2:
            return True
        if any(_open_max(a) for a in atom.args):
            return True
    return False


def open_matmuls(graph, atoms) -> list[tuple[str, str]]:
    """(node, operand) of MatMuls whose operand has unknown rank and may be a vector."""
    return [(n.name, t) for n in graph.nodes + graph.body_nodes if n.op == "MatMul"
            for t in n.inputs[:2] if t and t not in atoms.rank and atoms.min_rank.get(t, 2) < 2]


def enumerate_alternatives(problem, open_mm=(), spent: int = 0, seconds: float | None = None,
                           fixed=()) -> tuple[dict, list, bool]:
    """({tensor: [shape, ...]} for tensors with more than one, [the bindings of each case],
    capped?). `spent`: the computations the graph's own solve took; the cases together
    get a bounded multiple of that (their grounding holds every case at once, and cases
    that contradict each other can make arithmetic run without end, ASP-NOTES §2), and
    at most `seconds` (alternatives_seconds). `fixed`: the symbols the graph's own solve
    binds, bound in every case (alternatives.lp only adds rules to its program)."""
    from .solution import Solution

    graph = problem.graph
    if len(graph.nodes) + len(graph.body_nodes) > MAX_NODES:
        return {}, [], True
    from .asp.terms import quote

    text = (ENCODINGS_DIR / "alternatives.lp").read_text() + "".join(
        f"mm_open({quote(n)},{quote(t)})." for n, t in open_mm) + "".join(
        f"fixed({quote(sym)})." for sym in sorted(fixed))
    give_up_at = None if seconds is None else time.monotonic() + seconds
    try:
        ctl, _ = problem.control(text, args=(f"--models={MAX_MODELS + 1}",), sourced=False,
                                 choices=True, allowance=allowance(spent), voids=True,
                                 give_up_at=give_up_at)
    except Abandoned:
        return {}, [], True
    seen: dict[str, list] = {t: [] for t in graph.tensors()}
    count, cases = 0, []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            count += 1
            if count > MAX_MODELS:
                break
            sol = Solution(graph, decode(graph, Atoms.read(model.symbols(shown=True))))
            if sol.bindings not in cases:
                cases.append(sol.bindings)
            for t in seen:
                s = sol.shape(t)
                if s not in seen[t]:
                    seen[t].append(s)
    # in a canonical order, not clingo's order of enumeration (which follows the program)
    alternatives = {t: sorted(v) for t, v in seen.items() if len(v) > 1}
    cases = sorted(cases, key=lambda c: sorted((k, str(v)) for k, v in c.items()))
    return alternatives, (cases if alternatives else []), count > MAX_MODELS
