"""ONNX's node test cases with every input dim a symbol: a soundness check of the rules,
`python -m shape_logic.conformance_symbolic [OP ...]`.

The case's model gets its inputs' shapes as in conformance.py (small integer inputs stay
constants), then each input dim becomes a name of its own (`d0_1`: input 0, axis 1). The
solve must accept the graph, and under the names' true values (the case's input sizes)
every binding must hold and every output dim that names no fresh symbol must be the
recorded one. A fresh symbol (a dim the names do not determine) is allowed: it counts as
open, not wrong. Cases with an axis of 0 are left out: symbols stand for sizes >= 1.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .conformance import as_array, main_op, shape_model, supported_cases
from .sequences import VARIES
from .shapes import has_fresh_name
from .symbolic.expr import Expr
from .symbolic.parse import parse_dim

TIMEOUT = 10.0  # seconds per case


@dataclass
class Outcome:
    case: str
    op: str
    verdict: str  # "sound" | "wrong" | "rejected" | "gave up"
    known: int = 0  # output dims determined
    dims: int = 0  # output dims
    message: str = ""


def symbolic_model(case):
    """(the case's model with a name for every input dim, the names' true values); None
    when an input has an axis of 0."""
    model = shape_model(case)
    values = {}
    for k, vi in enumerate(model.graph.input):
        for i, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.dim_value == 0:
                return None
            values[f"d{k}_{i}"] = Expr.const(d.dim_value)
            d.dim_param = f"d{k}_{i}"  # (replaces dim_value: one of the two)
    return model, values


def check_case(case) -> Outcome | None:
    from .errors import InputError
    from .limits import TimeLimit
    from .solver import solve

    made = symbolic_model(case)
    if made is None:
        return None
    model, values = made
    op = main_op(case)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sol = solve(model, timeout=TIMEOUT)
    except (InputError, TimeLimit) as e:
        return Outcome(case.name, op, "gave up", message=str(e)[:200])
    if sol.status != "ok":
        return Outcome(case.name, op, "rejected",
                       message="; ".join(d.message for d in sol.diagnostics))
    problems = []
    for name, bound in sol.bindings.items():
        got = Expr.const(bound) if isinstance(bound, int) else parse_dim(str(bound))
        if name in values and got.subs(values) != values[name]:
            problems.append(f"binding {name} = {bound}, but {name} is {values[name]}")
    known = dims = 0
    _, outputs = case.data_sets[0]
    for vi, want in zip(case.model.graph.output, outputs):
        got = sol.dims(vi.name)
        # a sequence's dims are every element's (`?` where they need not agree)
        shapes = [np.shape(as_array(e)) for e in want] if isinstance(want, list) else \
            [np.shape(as_array(want))]
        if got is None:
            continue
        if any(len(got) != len(shape) for shape in shapes):
            problems.append(f"{vi.name}: rank {len(got)}, recorded {shapes}")
            continue
        for i, d in enumerate(got):
            dims += 1
            if has_fresh_name(d) or d == VARIES:
                continue  # open: a fresh name, or a sequence's axis its elements need not share
            known += 1
            for shape in shapes:
                if d.subs(values) != Expr.const(shape[i]):
                    problems.append(f"{vi.name}[{i}] = {d}: {d.subs(values)}, recorded {shape[i]}")
    verdict = "wrong" if problems else "sound"
    return Outcome(case.name, op, verdict, known, dims, "; ".join(problems))


def run(ops: set[str] | None = None, every: int = 1) -> list[Outcome]:
    """The cases (every `every`-th one) checked; cases left out give no outcome."""
    from .progress import steps

    cases = list(supported_cases(ops))[::every]
    return [o for o in (check_case(c) for c in steps(cases, "symbolic cases")) if o]


def summary(outcomes: list[Outcome]) -> str:
    lines = [f"{o.verdict.upper()} {o.case}: {o.message}" for o in outcomes
             if o.verdict != "sound"]
    counts = {v: sum(o.verdict == v for o in outcomes)
              for v in ("sound", "wrong", "rejected", "gave up")}
    known, dims = sum(o.known for o in outcomes), sum(o.dims for o in outcomes)
    lines.append(", ".join(f"{v} {n}" for v, n in counts.items())
                 + f"; output dims determined {known}/{dims}")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    from .progress import on_terminal, reporting

    with reporting(on_terminal()):
        outcomes = run(set(sys.argv[1:]) or None)
    print(summary(outcomes))
