"""`shape-logic check`: every declared output shape and annotation against what the rest of
the graph implies (MLIR's test driver for declared vs inferred types).

A declaration is *implied* when the graph without it infers the same shape or a more
precise one (a declaration merely less precise than the inference is fine); it is an
*assumption* when it adds information the rest of the graph does not give - allowed,
but reported - and a *contradiction* when the graph is inconsistent with it (exit 1,
with the diagnostics of `solve`). An ONNX model's declared outputs are advice: the solve
sets aside those that contradict the graph (listed as contradictions, exit 1) or require
something of its inputs (listed as set aside; narrowing.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from .decode import decode
from .shapes import has_fresh_name
from .solver import Problem, solve

MAX_DECLARATIONS = 200


@dataclass
class Verdict:
    tensor: str
    place: str
    declared: str
    inferred: str
    status: str  # implied | assumption | set aside | contradiction

    def to_json(self) -> dict:
        return {"tensor": self.tensor, "place": self.place, "declared": self.declared,
                "inferred": self.inferred, "status": self.status}


def check(source, rules=(), strict: bool = False) -> tuple:
    """(solution, verdicts): the solve of the whole graph and one verdict per declaration."""
    sol = solve(source, rules, strict=strict)
    if sol.status != "ok":
        return sol, []
    problem = Problem.load(sol.graph, rules, strict)
    sources = _sources(problem)
    verdicts = []
    decls = [("output", i) for i in sol.graph.outputs.values()] + \
            [("ann", i) for i in sol.graph.annotations.values()]
    for kind, info in decls[:MAX_DECLARATIONS]:
        if info.shape is None:
            continue
        rest = [s for s in sources if not (s.startswith(f"src({kind},") and
                                           _name_of(s) == info.name)]
        atoms, _ = problem.atoms(active=rest)
        shape = decode(sol.graph, atoms).shapes.get(info.name)
        inferred = str(shape) if shape is not None else "unknown"
        status = "implied" if _at_least_as_precise(sol, problem, atoms, info.name) else "assumption"
        declared = str(info.shape) if info.shape.dims is None else \
            "[" + ", ".join("?" if has_fresh_name(d) else str(d) for d in info.shape.dims) + "]"
        verdicts.append(Verdict(info.name, info.place, declared, inferred, status))
    for name, (declared, _, status) in sol.set_aside.items():  # (ONNX: advice that disagrees)
        inferred = str(sol.decoded.shapes.get(name) or "unknown")
        verdicts.append(Verdict(name, sol.graph.outputs[name].place, declared, inferred, status))
    return sol, verdicts


def _sources(problem) -> list[str]:
    import re

    return sorted(set(re.findall(r"source\((src\((?:[^()\"]|\"(?:[^\"\\\\]|\\\\.)*\")*\))\)",
                                 problem.sourced_facts)))


def _name_of(src: str) -> str:
    start = src.index('"') + 1
    end = src.index('",', start)
    return src[start:end]


def _at_least_as_precise(sol, problem, atoms, tensor) -> bool:
    """Without the declaration, does the graph know every dim the full solve knows?"""
    without = decode(sol.graph, atoms)
    for t in sol.graph.tensors():
        full, rest = sol.decoded.shapes.get(t), without.shapes.get(t)
        if full is None:
            continue
        if rest is None or len(rest.dims) != len(full.dims):
            return False
        for a, b in zip(full.dims, rest.dims):
            if has_fresh_name(b) and not has_fresh_name(a):
                return False
            if a.is_int and not b.is_int:
                return False
    return True


# status -> (mark, what follows the declaration); an ONNX model's declared outputs that
# disagree with the graph are set aside by the solve (narrowing.py) and shown here
_MARKS = {"implied": ("ok  ", ""),
          "assumption": ("note", " - an assumption: the graph alone gives {}"),
          "set aside": ("note", " - set aside: it requires of the inputs what the graph "
                                "does not; the graph gives {}"),
          "contradiction": ("err ", " - set aside: it contradicts the graph, which gives {}")}


def render(sol, verdicts) -> str:
    if sol.status != "ok":
        return sol.to_text()
    lines = [f"check {sol.graph.name!r}: {len(verdicts)} declarations"]
    for v in verdicts:
        mark, extra = _MARKS[v.status]
        lines.append(f"  {mark} {v.place}: {v.declared}"
                     + (extra.format(v.inferred) if extra else ""))
    return "\n".join(lines)
