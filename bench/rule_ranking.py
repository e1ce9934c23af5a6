"""Which of the rules a graph's solve keeps cost its grounding most, without leaving any out.

    python bench/rule_ranking.py MODEL [--mode closure|instances|fixed] [--top N] [--reps R]
    python bench/rule_ranking.py --all [--top N] [--reps R]

Leaving rules out of a grounding (ablation) can make it run away (arithmetic then meets
values the left-out rules would have stopped). Here every rule is measured against the
*closure* of the graph's own solve instead: every atom of its ground program (the program
is Horn, so every one is a fact) given as facts, which no rule extends - no runaway.

  closure    each kept rule grounded alone, in a part of its own, against the closure:
             its join over the finished atoms, in ms (min of R runs, less an empty part's
             grounding). A rule of the recursive component also pays per round of the
             real grounding, which this does not see.
  instances  the ground instances of each rule over the closure (bindings of its body's
             variables): the per-atom work of the real grounding (~1-2 us an instance).
  fixed      what clingo's preparation of each rule costs on no facts (K renamed copies
             grounded in a part of their own), in us: a small graph's grounding is mostly
             this (a BERT layer: ~19 of ~29 ms).

MODEL: an ONNX or JSON graph. Run under `ulimit -v` all the same, and time on a quiet
machine (flock); `instances` counts, so it does not care.

--all: `fixed` for every rule of our encodings and rule files, no graph (~20-100 us for
most). A rule far above that is worth a look: two integer bounds of one variable make a
range literal, enumerated in a rule outside a recursive component (RULES.md, "Two bounds
of one variable"); `@`-terms are never called (no body is satisfied).
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LOC = None  # a clingo.ast.Location for the statements made here


def kept_rules(source):
    """(the problem, its grounded control and Functions, the base-part rules relevance
    kept) of a warm solve (the files parsed into statements, as a process's later solves)."""
    import clingo.ast as ast

    import shape_logic.asp.program as program
    from shape_logic import solve
    from shape_logic.solver import Problem

    solve(source)
    chosen: list = []
    real = program.select
    program.select = lambda *a, **k: chosen.append(real(*a, **k)) or chosen[-1]
    try:
        problem = Problem.load(source)
        ctl, funcs = problem.control("", sourced=False)
    finally:
        program.select = real
    part, rules = "base", []
    for s in chosen[-1]:
        if s.ast_type == ast.ASTType.Program:
            part = s.name
        elif s.ast_type == ast.ASTType.Rule and part == "base":
            rules.append(s)
    return problem, ctl, funcs, rules


def shipped_rules() -> list:
    """The rules of each of our encodings and rule files: a list per file."""
    import clingo.ast as ast

    files = sorted((ROOT / "encodings").glob("*.lp")) + sorted((ROOT / "rules").glob("*.lp"))
    out = []
    for path in files:
        rules: list = []
        ast.parse_files([str(path)], lambda s: s.ast_type == ast.ASTType.Rule and rules.append(s))
        out.append(rules)
    return out


class NoFunctions:
    """A context where every `@`-function exists (for rules grounded on no facts)."""

    def __getattr__(self, name):
        import clingo

        return lambda *args: clingo.Number(0)


def where(rule) -> str:
    return f"{Path(rule.location.begin.filename).name}:{rule.location.begin.line}"


def _location():
    import clingo.ast as ast

    p = ast.Position("<ranking>", 1, 1)
    return ast.Location(p, p)


def closure_costs(ctl, funcs, rules, reps: int) -> list[float]:
    import clingo
    import clingo.ast as ast

    closure = "".join(f"{a.symbol}.\n" for a in ctl.symbolic_atoms)
    best, empty = [float("inf")] * len(rules), float("inf")
    for _ in range(reps):
        c = clingo.Control(["--models=1"], logger=lambda code, msg: None)
        c.add("base", [], closure)
        c.ground([("base", [])])
        with ast.ProgramBuilder(c) as b:
            b.add(ast.Program(_location(), "empty", []))
            for i, r in enumerate(rules):
                b.add(ast.Program(_location(), f"r{i}", []))
                b.add(r)
        empty = _ground_parts(c, funcs, best, empty)
    return [(b - empty) * 1e3 for b in best]


def _ground_parts(c, funcs, best: list, empty: float) -> float:
    """Ground the empty part, then part r{i}, for each i: best[i] keeps r{i}'s fastest
    time; returns the empty part's fastest (an empty part's grounding is the baseline)."""
    for i in range(len(best)):
        t0 = time.perf_counter()
        c.ground([("empty", [])], context=funcs)
        empty = min(empty, time.perf_counter() - t0)
        t0 = time.perf_counter()
        c.ground([(f"r{i}", [])], context=funcs)
        best[i] = min(best[i], time.perf_counter() - t0)
    return empty


def instance_counts(ctl, funcs, rules) -> list[int]:
    import clingo
    import clingo.ast as ast

    class Variables(ast.Transformer):
        def __init__(self):
            self.names: list = []

        def visit_Variable(self, v):
            if v.name != "_" and v.name not in self.names:
                self.names.append(v.name)
            return v

    c = clingo.Control(["--models=1"], logger=lambda code, msg: None)
    c.add("base", [], "".join(f"{a.symbol}.\n" for a in ctl.symbolic_atoms))
    loc = _location()
    with ast.ProgramBuilder(c) as b:
        for i, r in enumerate(rules):
            seen = Variables()
            for literal in r.body:
                seen(literal)
            head = ast.Function(loc, f"instance_{i}", [ast.Variable(loc, n) for n in seen.names],
                                False)
            b.add(r.update(head=ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(head))))
    c.ground([("base", [])], context=funcs)
    count = collections.Counter(a.symbol.name for a in c.symbolic_atoms
                                if a.symbol.name.startswith("instance_"))
    return [count[f"instance_{i}"] for i in range(len(rules))]


def fixed_costs(funcs, rules, reps: int, copies: int = 10) -> list[float]:
    import clingo
    import clingo.ast as ast

    class Renamed(ast.Transformer):
        def __init__(self, suffix):
            self.suffix = suffix

        def visit_Variable(self, v):
            return v if v.name == "_" else v.update(name=v.name + self.suffix)

    best, empty = [float("inf")] * len(rules), float("inf")
    for _ in range(reps):
        c = clingo.Control(["--models=1"], logger=lambda code, msg: None)
        with ast.ProgramBuilder(c) as b:
            b.add(ast.Program(_location(), "empty", []))
            for i, r in enumerate(rules):
                b.add(ast.Program(_location(), f"r{i}", []))
                for k in range(copies):
                    b.add(Renamed(f"_{k}")(r))
        empty = _ground_parts(c, funcs, best, empty)
    return [(b - empty) / copies * 1e6 for b in best]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?")
    ap.add_argument("--mode", choices=("closure", "instances", "fixed"), default="closure")
    ap.add_argument("--all", action="store_true",
                    help="fixed, for every rule of our encodings and rule files (no MODEL)")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    if args.all:  # (a control per file: one holding them all makes every part's grounding
        # slower in proportion to the whole program, ~2.5 ms a rule whatever it is)
        rules, costs = [], []
        for file_rules in shipped_rules():
            rules += file_rules
            costs += fixed_costs(NoFunctions(), file_rules, args.reps)
        _report(f"{len(rules)} rules; fixed", costs, "us", rules, args.top)
        return
    if args.model is None:
        ap.error("give a MODEL, or --all")
    source = args.model
    if source.endswith(".onnx"):
        import onnx

        source = onnx.load(source)
    problem, ctl, funcs, rules = kept_rules(source)
    atoms = sum(1 for _ in ctl.symbolic_atoms)
    if args.mode == "closure":
        costs, unit = closure_costs(ctl, funcs, rules, args.reps), "ms"
    elif args.mode == "instances":
        costs, unit = instance_counts(ctl, funcs, rules), "instances"
    else:
        costs, unit = fixed_costs(funcs, rules, args.reps), "us"
    _report(f"{len(rules)} rules kept, {atoms} atoms; {args.mode}", costs, unit, rules,
            args.top)


def _report(head: str, costs: list, unit: str, rules: list, top: int) -> None:
    print(f"{head}: {sum(costs):.1f} {unit} in all")
    by_file: collections.Counter = collections.Counter()
    for cost, r in zip(costs, rules):
        by_file[where(r).split(":")[0]] += cost
    print("by file: " + ", ".join(f"{f} {c:.1f}" for f, c in by_file.most_common(12)))
    for cost, r in sorted(zip(costs, rules), key=lambda x: -x[0])[:top]:
        print(f"{cost:9.2f} {unit:9s} {where(r):26s} {str(r)[:110]}")


if __name__ == "__main__":
    main()
