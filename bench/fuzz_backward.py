"""Backward soundness fuzzing for bench/fuzz.py (`--backward`): hide what inputs declare,
annotate what the graph computes, and check what the solver infers back.

A graph of the base or ops kind is built by execution as always (every tensor's true
shape known). Then some of its inputs' declarations are hidden - a dim made `?`, the
leading axes folded into a shape variable (`r0@[3]`), the whole shape or the dtype left
out - and some of the tensors the nodes make are annotated with their true shape (in
"annotations", or in "outputs" for the last node's), each dim as its integer, an input
symbol of that value, a new symbol `aK` of that value (the same one for some equal dims),
twice a symbol for an even dim, a symbol plus 1, or `?`; a few with the leading axes left
to a shape variable (`q0@[a0, 3]`), a few with their dtype. Every annotation holds, so the
graph is consistent, and under the symbols' true values (the inputs' and the `aK`):

- the solver must not call it inconsistent;
- every dim it states, on every tensor (the hidden input dims it infers backward among
  them), must evaluate to the executed one, fresh names one value each; bindings, ranges,
  floors and constraints must hold (fuzz.compare, plus floors);
- every 4th graph: the explaining solve must say ok too, and executor.Program must run it;
- at other sizes of the inputs' symbols (as fuzz.at_other_sizes picks them) where that run
  holds every annotation, the same (the annotations' symbols take the run's values).

Completeness, reported: how many hidden input dims come back without a fresh name (an
integer or an expression of the user's symbols), and how many hidden ranks come back.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import numpy as np

from shape_logic.graph import dtype_of_array
from shape_logic.shapes import has_fresh_name


@dataclass
class Disguise:
    """The graph as the solver sees it: hidden input declarations, annotations."""
    graph: dict
    symbols: dict  # every user symbol's true value: the inputs' and the annotations'
    hidden: list = field(default_factory=list)  # (input, axis) whose declared dim is hidden
    hidden_ranks: list = field(default_factory=list)  # inputs whose rank is hidden
    annotated: list = field(default_factory=list)  # tensors annotated


def disguise(b, rng: random.Random) -> Disguise:
    """b's graph with some input declarations hidden and some computed tensors annotated
    with their true shapes (see the module's docstring)."""
    g = json.loads(json.dumps(b.graph))
    d = Disguise(g, dict(b.symbols))
    p_hide = rng.choice([0.3, 0.6, 1.0])
    rows = 0
    for t, decl in g["inputs"].items():
        shape = decl["shape"]
        if rng.random() >= p_hide:
            continue
        if rng.random() < 0.1:
            del decl["dtype"]
        r = rng.random()
        if r < 0.25:
            del decl["shape"]
            d.hidden_ranks.append(t)
            d.hidden += [(t, i) for i in range(len(shape))]
        elif r < 0.4 and shape:
            k = rng.randint(1, len(shape))
            decl["shape"] = f"r{rows}" + ("@" + _text(shape[k:]) if k < len(shape) else "")
            rows += 1
            d.hidden_ranks.append(t)
            d.hidden += [(t, i) for i in range(len(shape))]  # (the rank and each dim)
        else:
            axes = [i for i in range(len(shape)) if rng.random() < 0.5] or \
                ([rng.randrange(len(shape))] if shape else [])
            for i in axes:
                shape[i] = "?"
            d.hidden += [(t, i) for i in axes]
    p_note = rng.choice([0.2, 0.5, 1.0])
    made = [o for n in g["nodes"] for o in n["outputs"]
            if o and isinstance(b.values.get(o), np.ndarray)]
    last = set(g["nodes"][-1]["outputs"]) if g["nodes"] else set()
    for t in made:
        if rng.random() >= p_note:
            continue
        dims = [_dim(v, d, rng) for v in b.values[t].shape]
        if dims and rng.random() < 0.1:  # the leading axes left to a shape variable
            k = rng.randint(1, len(dims))
            text = f"q{rows}" + ("@" + _text(dims[k:]) if k < len(dims) else "")
            rows += 1
        else:
            text = _text(dims)
        place = "outputs" if t in last and rng.random() < 0.5 else "annotations"
        g.setdefault(place, {})[t] = {"shape": text}
        if rng.random() < 0.2:
            g[place][t]["dtype"] = dtype_of_array(b.values[t])
        d.annotated.append(t)
    return d


def _dim(v: int, d: Disguise, rng: random.Random) -> str:
    """The executed dim v as an annotation writes it (new symbols go into d.symbols)."""
    r = rng.random()
    if r < 0.35:
        return str(v)
    if r < 0.45:
        return "?"
    same = [s for s, x in d.symbols.items() if x == v]
    if same and r < 0.7:
        return rng.choice(same)
    if v >= 2 and v % 2 == 0 and r < 0.8:
        return "2*" + _symbol(v // 2, d, rng)
    if v >= 2 and r < 0.85:
        return _symbol(v - 1, d, rng) + " + 1"
    return _symbol(v, d, rng)


def _symbol(v: int, d: Disguise, rng: random.Random) -> str:
    same = [s for s, x in d.symbols.items() if x == v and s.startswith("a")]
    if same and rng.random() < 0.5:
        return rng.choice(same)
    s = f"a{sum(x.startswith('a') for x in d.symbols)}"
    d.symbols[s] = v
    return s


def _text(dims) -> str:
    return "[" + ", ".join(str(x) for x in dims) + "]"


def check_backward(b, rng: random.Random, run_program: bool = False,
                   d: Disguise | None = None) -> tuple[str, str, str | None, Disguise, dict]:
    """(verdict, reason, tensor, the disguised graph, completeness counts) of b's graph
    disguised: verdict ok | unsound (skip: a graph that fails in the executor)."""
    from shape_logic.solver import solve

    d = disguise(b, rng) if d is None else d
    counts = {"hidden": len(d.hidden), "recovered": 0, "hidden_ranks": len(d.hidden_ranks),
              "ranks_recovered": 0, "annotated": len(d.annotated), "other_sizes": 0}
    if b.failed_op:
        return "skip", "", None, d, counts
    sol = solve(d.graph, explain=False)
    verdict, reason, tensor = judge(sol, b, d)
    if verdict == "ok" and run_program:
        if solve(d.graph).status != "ok":
            return "unsound", "the explaining solve calls it inconsistent", None, d, counts
        found = program_rejects(b, d)
        if found:
            return "unsound", found, None, d, counts
    if verdict == "ok":
        from fuzz import OTHER_SIZES

        for attempt in range(OTHER_SIZES):
            found = at_other_sizes(b, d, sol, attempt, counts)
            if found is not None:
                return ("unsound", *found, d, counts)
        for t, i in d.hidden:
            dims = sol.dims(t)
            counts["recovered"] += dims is not None and len(dims) > i and \
                not has_fresh_name(dims[i])
        counts["ranks_recovered"] = sum(sol.dims(t) is not None for t in d.hidden_ranks)
    return verdict, reason, tensor, d, counts


def judge(sol, b, d: Disguise, values: dict | None = None) -> tuple[str, str, str | None]:
    """What check_backward says of one solution of d's graph, against b's executed values
    (or `values`, a run at other sizes)."""
    from fuzz import compare

    if sol.status == "error":
        text = sol.diagnostics[0].to_text() if hasattr(sol.diagnostics[0], "to_text") \
            else str(sol.diagnostics[0])
        return "unsound", "the solver calls it inconsistent, it runs: " + \
            text.splitlines()[0], None
    here = set(d.graph["inputs"]) | set(d.graph["initializers"]) | \
        {o for n in d.graph["nodes"] for o in n["outputs"]}
    values = b.values if values is None else values
    found = compare(sol, {t: a for t, a in values.items() if t in here}, d.symbols)
    if found is not None:
        return ("unsound", *found)
    for s, lo in sol.decoded.floors.items():
        if s in d.symbols and d.symbols[s] < lo:
            return "unsound", f"floor {s} >= {lo}, but {s} is {d.symbols[s]}", None
    return "ok", "", None


def at_other_sizes(b, d: Disguise, sol, attempt: int,
                   counts: dict | None = None) -> tuple[str, str | None] | None:
    """fuzz.compare() after running the graph again with the inputs' symbols at other
    values (as fuzz.at_other_sizes picks them), where that run holds every annotation
    (the annotations' own symbols take the values it gives them); None when it does not,
    or the graph does not run there."""
    from fuzz_exec import other_symbols, runs_at

    if not b.symbols:
        return None
    symbols = other_symbols(b, attempt, " back")
    values = runs_at(b, symbols)
    if values is None:
        return None
    for place in ("annotations", "outputs"):
        for t, decl in d.graph.get(place, {}).items():
            if not _holds(decl["shape"], values[t].shape, symbols):
                return None
    if counts is not None:  # (how many runs at other sizes were compared)
        counts["other_sizes"] = counts.get("other_sizes", 0) + 1
    verdict, reason, tensor = judge(sol, b, Disguise(d.graph, symbols), values)
    return None if verdict == "ok" else (f"at {symbols}: {reason}", tensor)


def _holds(text: str, shape, symbols: dict) -> bool:
    """Whether an annotation as disguise() writes it holds of `shape`; its new symbols
    (aK) are given the values the shape has, one each, in `symbols`."""
    row = text.startswith("q")  # (a shape variable before the dims: those are the last)
    text = text.split("@", 1)[1] if row and "@" in text else "" if row else text
    dims = [x for x in text.strip("[]").split(", ") if x]
    if len(dims) > len(shape) or not row and len(dims) != len(shape):
        return False
    for x, v in zip(dims, shape[len(shape) - len(dims):]):
        if x == "?":
            continue
        if x.isdigit():
            if int(x) != v:
                return False
            continue
        k, c = (2, 0) if x.startswith("2*") else (1, 1) if x.endswith(" + 1") else (1, 0)
        name = x[2:] if k == 2 else x[:-4] if c else x
        w = (v - c) // k
        if (v - c) % k or w < 1 or symbols.setdefault(name, w) != w:
            return False
    return True


def program_rejects(b, d: Disguise) -> str | None:
    """Why executor.Program fails to run d's graph on b's inputs (it checks every tensor
    against the inference); None when it runs."""
    from shape_logic.executor import Program
    from shape_logic.limits import TimeLimit

    feeds = {t: b.values[t] for t in d.graph["inputs"]}
    try:
        Program(d.graph).run(feeds, warmup=0, repeat=1)
    except TimeLimit:
        raise
    except Exception as e:  # noqa: BLE001
        return f"executor.Program rejects it: {type(e).__name__}: {e}"
    return None


def shrink_backward(b, d: Disguise, verdict: str, program: bool = False) -> Disguise:
    """d cut down while check_backward still gives `verdict` on it: annotations dropped,
    hidden declarations restored, nodes no remaining annotation or node reads removed
    from the end, one at a time (greedy)."""
    def fails(g: dict) -> bool:
        e = Disguise(g, d.symbols, [h for h in d.hidden if h[0] in g["inputs"]],
                     [t for t in d.hidden_ranks if t in g["inputs"]])
        try:  # (with executor.Program where it was what failed)
            return check_backward(b, random.Random(0), program, e)[0] == verdict
        except Exception:  # noqa: BLE001
            return False

    g = json.loads(json.dumps(d.graph))
    changed = True
    while changed:
        changed = False
        for trial in _smaller(g, b):
            if fails(trial):
                g, changed = trial, True
                break
    return Disguise(g, d.symbols, [h for h in d.hidden if h[0] in g["inputs"]],
                    [t for t in d.hidden_ranks if t in g["inputs"]], list(
                        {**g.get("annotations", {}), **g.get("outputs", {})}))


def _smaller(g: dict, b):
    """Graphs one step smaller than g."""
    for place in ("annotations", "outputs"):
        for t in list(g.get(place, {})):
            h = json.loads(json.dumps(g))
            del h[place][t]
            yield h
    for t, decl in g["inputs"].items():  # a declaration restored
        if decl != b.graph["inputs"][t]:
            h = json.loads(json.dumps(g))
            h["inputs"][t] = b.graph["inputs"][t]
            yield h
    noted = set(g.get("annotations", {})) | set(g.get("outputs", {}))
    for k in range(len(g["nodes"]) - 1, -1, -1):  # a node nothing reads
        outs = set(g["nodes"][k]["outputs"])
        if any(o in outs for n in g["nodes"][k + 1:] for o in n["inputs"]) or len(
                g["nodes"]) == 1:
            continue
        h = json.loads(json.dumps(g))
        del h["nodes"][k]
        for place in ("annotations", "outputs"):
            for t in outs & noted:
                h.get(place, {}).pop(t, None)
        used = {x for n in h["nodes"] for x in n["inputs"]}
        h["inputs"] = {t: v for t, v in h["inputs"].items() if t in used}
        h["initializers"] = {t: v for t, v in h["initializers"].items() if t in used}
        yield h


def fuzz_one(b, d: Disguise, run_program: bool, counts: dict) -> tuple[str, str, None]:
    """(verdict, reason, None) of check_backward on b disguised as d, its completeness
    counts added to `counts`."""
    verdict, reason, _, _, got = check_backward(b, random.Random(0), run_program, d)
    for k, v in got.items():  # (over the graphs found sound: what they hid, what came back)
        counts[k] = counts.get(k, 0) + (v if verdict == "ok" else 0)
    return verdict, reason, None


def failing_graph(b, d: Disguise, verdict: str, reason: str = "") -> dict:
    """The graph to write for a failure: shrunk if unsound, else d's as it was."""
    program = "executor.Program" in reason
    return shrink_backward(b, d, verdict, program).graph if verdict == "unsound" else d.graph


def completeness(totals: dict) -> str:
    """One line of the completeness counts summed over graphs."""
    h, r = totals.get("hidden", 0), totals.get("recovered", 0)
    hr, rr = totals.get("hidden_ranks", 0), totals.get("ranks_recovered", 0)
    return (f"hidden input dims recovered: {r} of {h} ({100 * r / max(h, 1):.0f}%); "
            f"hidden ranks recovered: {rr} of {hr} ({100 * rr / max(hr, 1):.0f}%); "
            f"tensors annotated: {totals.get('annotated', 0)}; runs at other sizes "
            f"compared: {totals.get('other_sizes', 0)}")

