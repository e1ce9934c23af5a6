"""What clingo's preparation of each of our rules costs: every rule grounded alone, on no
facts (RULES.md, "Two bounds of one variable").

    python bench/rule_preparation.py [--top N] [--reps R] [FILE ...]

Each rule of the encodings and rule files (or of the FILEs given) is added alone to a
fresh control and grounded with no facts; its time is the process time of that, the
minimum of R runs. On no facts no rule fires, so this is what clingo's preparation of
the rule costs, plus what its body costs before any fact is read: ~20-100 us for most
rules. A rule far above that is worth a look: two integer bounds of one variable make a
range literal, enumerated in a rule outside a recursive component (RULES.md, "Two bounds
of one variable"; inside one, where most of ours are, it only checks). `@`-terms are
never called (no body is ever satisfied). Process time: run it on a quiet machine, or
compare runs made side by side.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import clingo
import clingo.ast as ast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class _NoFunctions:
    """A context whose every function exists (the rules' `@`-terms must resolve)."""

    def __getattr__(self, name):
        return lambda *args: clingo.Number(0)


def shipped_files() -> list[Path]:
    return sorted((ROOT / "encodings").glob("*.lp")) + sorted((ROOT / "rules").glob("*.lp"))


def preparation(rule, reps: int) -> float:
    """Seconds of process time to ground `rule` alone on no facts (min of `reps`)."""
    best = float("inf")
    for _ in range(reps):
        start = time.process_time()
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:
            builder.add(ast.Program(rule.location, "base", []))
            builder.add(rule)
        ctl.ground([("base", [])], context=_NoFunctions())
        best = min(best, time.process_time() - start)
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args(argv)
    timed = []
    for path in args.files or shipped_files():
        rules: list = []
        ast.parse_files([str(path)], lambda s: s.ast_type == ast.ASTType.Rule and rules.append(s))
        for rule in rules:
            timed.append((preparation(rule, args.reps), path.name, rule.location.begin.line))
    timed.sort(reverse=True)
    for seconds, name, line in timed[:args.top]:
        print(f"{seconds * 1e3:9.2f} ms  {name}:{line}")
    print(f"{len(timed)} rules, {sum(t for t, _, _ in timed) * 1e3:.0f} ms in all")


if __name__ == "__main__":
    main()
