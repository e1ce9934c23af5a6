"""Core shrinking: our deletion-based `CoreFinder.minimal_core` vs clingexplaid's MUS.

    pip install clingexplaid        (only this script needs it)
    python bench/core_shrinking.py [--layers N ...]

On every broken graph of tests/diagnostics/cases and on chains of N layers with one wrong
weight (the explain-mode grounding of the whole graph, no neighbourhoods), both start from
clingo's first core for the first conflicting place and shrink it on the same grounded
control: sources outside that core (and the other places' checks) are assumed off in
every solve, so that clingexplaid's linear elimination works on the core's literals only.
Prints time, solves and core size for each, and whether the two minimal cores are the same.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def cases(layer_counts):
    for f in sorted((ROOT / "tests" / "diagnostics" / "cases").glob("*.json")):
        yield f.stem, str(f)
    from test_diagnostics_local import chain

    for n in layer_counts:
        yield f"chain_{n}_layers", chain(n, bad=n // 2)


def first_core(source):
    from shape_logic.decode import decode  # noqa: F401  (warm imports outside the timing)
    from shape_logic.describe import subject
    from shape_logic.explain import CoreFinder, distances_from
    from shape_logic.solver import Problem

    problem = Problem.load(source)
    atoms, _ = problem.atoms()
    places = sorted({c.arguments[0] for c in atoms.conflicts}, key=str)
    finder = CoreFinder(problem, places)
    place = places[0]
    core = finder.core(finder.sources, place)
    tensor, node = subject(place)
    return finder, place, core, distances_from(problem.graph, tensor, node)


def ours(source):
    finder, place, core, distance = first_core(source)
    solves0, t0 = finder.solves, time.perf_counter()
    found, _ = finder.minimal_core(place, distance, exact_limit=10**9)
    return time.perf_counter() - t0, finder.solves - solves0, found


def clingexplaid_mus(source):
    """clingexplaid's MUS over the core's literals; the other sources and places are
    assumed off (as `minimal_core` does), fixed in every solve of its linear elimination."""
    from clingexplaid.unsat.computer import SubsetComputer

    finder, place, core, _ = first_core(source)
    fixed = [-lit for s, lit in finder.act_lit.items() if s not in core]
    fixed += [lit if p == place else -lit for p, lit in finder.check_lit.items()]
    ctl = finder.ctl
    solve = ctl.solve

    fixed_set = set(fixed)

    def solve_with_fixed(*args, assumptions=(), on_core=None, **kwargs):
        def core_without_fixed(core):  # the fixed literals are not clingexplaid's to shrink
            on_core([lit for lit in core if lit not in fixed_set])

        return solve(*args, assumptions=list(assumptions) + fixed,
                     on_core=core_without_fixed if on_core else None, **kwargs)

    ctl.solve = solve_with_fixed  # clingexplaid passes only the core's literals
    literals = [finder.act_lit[s] for s in core]
    t0 = time.perf_counter()
    mus = SubsetComputer(ctl, literals).mus(literals)
    elapsed = time.perf_counter() - t0
    return elapsed, None, {finder.source_of[a.literal] for a in mus.assumptions}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, nargs="*", default=[10, 40, 160])
    args = ap.parse_args()
    print(f"{'case':32} {'ours s':>8} {'solves':>6} {'size':>5} {'clingexplaid s':>15} "
          f"{'size':>5}  same")
    tot_a = tot_b = 0.0
    for name, source in cases(args.layers):
        ta, solves, a = ours(source)
        tb, _, b = clingexplaid_mus(source)
        tot_a, tot_b = tot_a + ta, tot_b + tb
        print(f"{name:32} {ta:8.3f} {solves:6} {len(a):5} {tb:15.3f} {len(b):5}  "
              f"{'yes' if a == b else 'no'}")
    print(f"{'total':32} {tot_a:8.3f} {'':6} {'':5} {tot_b:15.3f}   ratio clingexplaid/ours "
          f"{tot_b / tot_a:.2f}")


if __name__ == "__main__":
    main()
