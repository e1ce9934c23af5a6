"""Narrowing fuzzing for bench/fuzz.py (`--narrowing`): a random graph written as an ONNX
model whose outputs are declared the ways exporters declare them, solved, and checked.

A graph of the base or ops kind is built by execution as always (every tensor's true
shape known) and solved as JSON, its outputs undeclared: that solve's shapes (checked
against execution first: the forward fuzzer's business, skipped where wrong) are the
graph's true symbolic shapes. Some of its tensors become the model's outputs (the last
node's often, others that nodes read too), each declared one of the WAYS below, and the
model is solved (shape_logic.narrowing sets aside the declarations that disagree with
the graph). Under the input symbols' true values:

- soundness: every dim of every tensor evaluates to the executed one (a declaration's own
  names, like fresh names, one value each), bindings, ranges and constraints hold - at the
  built size and at other sizes where the graph runs (fuzz.at_other_sizes);
- a graph the JSON solve finds consistent is not called inconsistent (its declarations are
  advice), and one it finds inconsistent stays so;
- a declaration that agrees with the graph and requires nothing of the inputs (MUST_KEEP:
  the true shape, fresh names for dims that are sizes of at least 1) is kept, without a
  warning; one set aside is named in exactly one warning, a kept one in none;
- narrowing.Obvious's decisions are those of the solves they stand for: where it decided
  a trial, the model is solved again with every trial solved, and the shapes, the outputs
  set aside and why (contradiction or set aside) must be the same.
"""
from __future__ import annotations

import contextlib
import copy
import random

from fuzz_declare import WAYS, Declared, declare

from shape_logic.shapes import has_fresh_name

# the verdicts that are findings (fuzz.py reports them, writes them to --out), every one a
# failure; "open": a wrong dim where a kept declaration gives a dim the graph leaves open a
# value in the inputs' terms (a traced size). Narrowing looks for those where the rules
# mark an axis open (unsized, data_dependent) or a node's sizes come from data
# (shape_logic/data_sizes.py): one the fuzzer finds is an axis left open by rules that do
# not say so, or a rule file that reads sizes from an input's values without stating
# sizes_from (encodings/schema.lp)
FINDINGS = ("unsound", "inconsistent", "dropped", "lost", "obvious", "crash", "timeout",
            "open")
FAILURES = FINDINGS


def fuzz_one(b, rng: random.Random, counts: dict, timeout: float | None = None
             ) -> tuple[str, str, Declared | None]:
    """(verdict, reason, the declared model or None) of b's graph as a model with its
    outputs declared at random (`rng`); verdict ok | caught (an inconsistent graph, still
    so) | skip | one of FINDINGS. `counts`: per way, the declarations made, kept, set aside
    (added to)."""
    from fuzz import compare
    from shape_logic.limits import TimeLimit
    from shape_logic.solver import solve

    sol = solve(b.graph, explain=False, timeout=timeout)
    if sol.status == "ok" and (b.failed_op or compare(sol, b.values, b.symbols) is not None):
        return "skip", "", None  # (the forward fuzzer's findings: missed, unsound)
    d = declare(b, sol, rng)
    if not d.outputs:
        return "skip", "", None
    try:
        verdict, reason, got = check_narrowing(b, d, timeout, sol)
    except TimeLimit as e:  # (a graph of a few nodes never needs long: a finding)
        return "timeout", str(e), d
    except Exception as e:  # noqa: BLE001 - a crash is a finding too
        return "crash", f"{type(e).__name__}: {e}", d
    for t, way in d.ways.items() if sol.status == "ok" else ():  # (consistent graphs')
        counts[way] = counts.get(way, 0) + 1
        kept = "set aside" if t in got.set_aside else "kept"
        counts[f"{way} {kept}"] = counts.get(f"{way} {kept}", 0) + 1
    return verdict, reason, d


def failing_case(b, d: Declared | None, verdict: str) -> dict:
    """The case to write for a finding: d shrunk (shrink_narrowing), as a JSON graph with
    its outputs' declarations (to_model makes the model again)."""
    if d is None:  # (the JSON graph's own solve failed: the forward fuzzer's to look at)
        return {"graph": b.graph, "symbols": b.symbols}
    if verdict not in ("crash", "timeout"):
        d = shrink_narrowing(b, d, verdict)
    return {**d.record(), "symbols": b.symbols}


def check_narrowing(b, d: Declared, timeout: float | None = None, graph_sol=None
                    ) -> tuple[str, str, object]:
    """(verdict, reason, the model's solution) of d's model against b's executed values;
    `graph_sol`: the solve of b's graph as JSON, undeclared (made if not given)."""
    from fuzz import OTHER_SIZES, at_other_sizes, compare
    from shape_logic.solver import solve

    if graph_sol is None:
        graph_sol = solve(b.graph, explain=False, timeout=timeout)

    model = d.model(b.values)
    with _obvious_watched() as decided:
        sol = solve(model, explain=False, timeout=timeout)
    if graph_sol.status != "ok":
        return ("caught", "", sol) if sol.status == "error" else (
            "unsound", "the graph is inconsistent, the model with its declarations is not",
            sol)
    if sol.status == "error":
        return "inconsistent", "the model is called inconsistent, the graph is not: " + \
            str(sol.diagnostics[0].message), sol
    found = compare(sol, b.values, b.symbols)
    for attempt in range(OTHER_SIZES):
        found = found or at_other_sizes(b, sol, attempt)
    if found is not None:
        filled = _fills_open_dims(d, sol, graph_sol, b)
        return ("open", f"{found[0]} ({filled})", sol) if filled else ("unsound", found[0], sol)
    found = _lost(sol, graph_sol, b)
    if found:
        return "lost", found, sol
    for t in d.outputs:
        if sol.graph.outputs[t].shape is None and t not in sol.set_aside:
            return "dropped", f"{t} ({d.ways[t]}) is solved undeclared without a warning", sol
        named = sum(w.startswith(f"graph output {t} is declared ") for w in sol.warnings)
        if named != (t in sol.set_aside):
            return "dropped", f"{t} ({d.ways[t]}) is named in {named} warnings, " + (
                "set aside" if t in sol.set_aside else "kept"), sol
        if t in d.must_keep and t in sol.set_aside:
            return "dropped", f"{t} declared {d.outputs[t]} ({d.ways[t]}), which the graph " \
                              f"gives as {sol.shape(t)}, is set aside: " + \
                              sol.set_aside[t][1], sol
    if decided:
        with _every_trial_solved():
            slow = solve(model, explain=False, timeout=timeout)
        found = _differences(sol, slow)
        if found:
            return "obvious", f"narrowing.Obvious decided {decided}: {found}", sol
    return "ok", "", sol


def _fills_open_dims(d: Declared, sol, graph_sol, b) -> str:
    """The kept declarations that give a dim the graph leaves open (a data-dependent size,
    a Resize's) a value in the inputs' terms, as text: narrowing keeps them (they require
    nothing of the inputs), and a traced size there holds at the traced size only."""
    out = []
    for t, dims in d.outputs.items():
        given = graph_sol.dims(t)
        if t in sol.set_aside or given is None or len(given) != len(dims):
            continue
        got = sol.dims(t)
        out += [f"{t} axis {i} = {g}" for i, (w, g) in enumerate(zip(given, got))
                if has_fresh_name(w) and g.symbols() <= set(b.symbols)]
    return "kept declarations fill dims the graph leaves open: " + ", ".join(out) \
        if out else ""


def _lost(sol, graph_sol, b) -> str:
    """A dim (or rank) that the graph's own solve gives and the model's does not: its
    declarations, kept or set aside, take nothing from what the graph gives."""
    for t in b.values:
        want, got = graph_sol.dims(t), sol.dims(t)
        if want is None:
            continue
        if got is None or len(got) != len(want):
            return f"{t}: the graph gives {graph_sol.shape(t)}, the model {sol.shape(t)}"
        for i, (w, g) in enumerate(zip(want, got)):
            # (another expression of the inputs may be the same under what the graph
            # requires: s0*s1 for 8 where a Reshape requires s0*s1 = 8; soundness checks it)
            if has_fresh_name(g) and not has_fresh_name(w):
                return f"{t}: axis {i} is {w} in the graph, {g} in the model"
    return ""


def _differences(sol, slow) -> str:
    """What differs between the model's solve and the one with every trial solved."""
    if slow.status != sol.status:
        return f"status {sol.status}, with every trial solved {slow.status}"
    why = {t: v[2] for t, v in sol.set_aside.items()}
    slow_why = {t: v[2] for t, v in slow.set_aside.items()}
    if why != slow_why:
        return f"set aside {why}, with every trial solved {slow_why}"
    shapes = {t: s for t, s in sol._shapes.items() if slow._shapes.get(t) != s}
    if shapes:
        t = next(iter(shapes))
        return f"{t}: {shapes[t]}, with every trial solved {slow._shapes.get(t)}"
    return ""


@contextlib.contextmanager
def _obvious_watched():
    """The trials narrowing.Obvious decides in the block: a list of (output, verdict)."""
    from shape_logic import narrowing

    decided, verdict = [], narrowing.Obvious.verdict

    def watched(self, name):
        outcome = verdict(self, name)
        if outcome is not None:
            decided.append((name, outcome))
        return outcome

    narrowing.Obvious.verdict = watched
    try:
        yield decided
    finally:
        narrowing.Obvious.verdict = verdict


@contextlib.contextmanager
def _every_trial_solved():
    """narrowing.Obvious decides nothing in the block: every trial is solved."""
    from shape_logic import narrowing

    verdict = narrowing.Obvious.verdict
    narrowing.Obvious.verdict = lambda self, name: None
    try:
        yield
    finally:
        narrowing.Obvious.verdict = verdict


def shrink_narrowing(b, d: Declared, verdict: str) -> Declared:
    """d cut down while check_narrowing still gives `verdict`: declared outputs dropped one
    at a time (greedy), the graph cut to the ancestors of those left (fuzz_exec.shrink)."""
    from fuzz_exec import shrink

    def smaller(e: Declared, t: str) -> Declared:
        outputs = {o: dims for o, dims in e.outputs.items() if o != t}
        graph = shrink(_with_graph(b, e.graph), list(outputs))
        return Declared(graph, outputs, {o: e.ways[o] for o in outputs},
                        e.must_keep & set(outputs))

    def fails(e: Declared) -> bool:
        try:
            return check_narrowing(_with_graph(b, e.graph), e)[0] == verdict
        except Exception:  # noqa: BLE001 - (another failure: not this one)
            return False

    changed = True
    while changed and len(d.outputs) > 1:
        changed = False
        for t in list(d.outputs):
            e = smaller(d, t)
            if fails(e):
                d, changed = e, True
                break
    return d


def _with_graph(b, graph: dict):
    """The Builder b with its graph replaced (its executed values stay)."""
    c = copy.copy(b)
    c.graph = graph
    return c


def summary(counts: dict) -> str:
    """One line of the declarations made, kept and set aside, per way."""
    return "declared (kept / set aside): " + ", ".join(
        f"{w} {counts.get(w, 0)} ({counts.get(w + ' kept', 0)} / "
        f"{counts.get(w + ' set aside', 0)})" for w in WAYS)
