"""Loops of a few iterations whose carried integer scalars are sizes: followed one
iteration at a time (rules/Loop.lp's unrolling).

A graph that keeps `for _ in range(3): n = (n + 1) // 2` as a Loop carrying n (a hand-built
one, an exporter that keeps loops; torch's own unrolls a loop of a constant trip count)
reads a size computed from the final n from the loop's output. The body is solved once
for any iteration, so its output's value is a function of its input's, which no rule can
apply three times over. Trial solves do it, as loop_induction's trials prove shapes: for a
loop that runs C times (a counted loop of a constant trip count, C at most 8; Loop.lp's
unroll_from), where a carried integer scalar's final value is open, the trial of iteration
i assumes the iteration number i and each followed value's input V_i (V_0 its initial
value), and reads the body's output there, V_{i+1} (unrolled_next, renamed into the names
around the loop). The last one is the final value (loop_final_value), for the graph's solve
and every later one. A value whose next one the trial leaves open, or gives in names of the
body's own, is followed no further (the others go on without it: what the trial derives
without an assumption holds whatever that value is).

As in loop_induction's trials, a trial solves the loop and its ancestors only: what the
graph downstream requires of the final value must not decide it."""
from __future__ import annotations

import clingo

from .asp.lifting import FAILURES
from .asp.terms import quote, symbol_to_expr
from .decode import decode
from .loop_induction import trial_problem


def with_unrolled_loops(problem, atoms, funcs, decoded) -> tuple:
    """(atoms, funcs, decoded) of the graph's solve, solved again with the final values of
    the carried scalars followed through their loops' iterations (problem.loop_facts, for
    every later solve too), if any. A loop whose initial value is such a final value is
    followed in the next round (each round's solve gives it), each loop once."""
    done: set = set()
    while not atoms.conflicts:
        plans = [p for p in _plans(problem.graph, atoms) if p[0].name not in done]
        if not plans:
            break
        before = problem.loop_facts
        for loop, runs, initial in plans:
            done.add(loop.name)
            got = _followed(problem, loop, runs, initial)
            problem.loop_facts += "".join(f"loop_final_value({quote(loop.name)},{k},{v})."
                                          for k, v in sorted(got.items()))
        if problem.loop_facts == before:
            break
        atoms.release_control()
        atoms, funcs = problem.atoms()
        decoded = decode(problem.graph, atoms)
    return atoms, funcs, decoded


def _plans(graph, atoms) -> list:
    """(Loop node, how many times it runs, {K: the initial value of carried value K}) for
    the top-level loops with values to follow (unroll_from), in the graph's order."""
    found: dict = {}
    for name, args in atoms.unrolling:
        if name == "unroll_from":
            runs, k, v0 = args[1].number, args[2].number, args[3]
            found.setdefault(args[0].string, (runs, {}))[1][k] = v0
    return [(n, *found[n.name]) for n in graph.nodes if n.op == "Loop" and n.name in found]


def _followed(problem, loop, runs: int, values: dict) -> dict:
    """K -> carried value K's final value, for those followed through all `runs`
    iterations from their initial `values` (K -> term)."""
    inputs = problem.graph.input_symbols()
    for it in range(runs):
        trial = trial_problem(problem, loop, problem.loop_facts + "".join(
            f"loop_value_assumed({quote(loop.name)},{k},{v})." for k, v in values.items())
            + f"loop_unrolled({quote(loop.name)},{it}).")
        atoms, _ = trial.atoms()
        try:
            if atoms.conflicts:
                return {}
            got: dict = {}
            for name, args in atoms.unrolling:
                if name == "unrolled_next" and args[0].string == loop.name:
                    got.setdefault(args[1].number, set()).add(args[2])
        finally:
            atoms.release_control()
        # (one value each: two spellings of one element's value are not followed)
        values = {k: next(iter(got[k])) for k in values
                  if len(got.get(k, ())) == 1 and _names_around(next(iter(got[k])), inputs)}
        if not values:
            return {}
    return values


def _names_around(value: clingo.Symbol, inputs) -> bool:
    """Whether `value` is a dim value in the names of the graph's inputs alone (not a body's
    own, nor a count of data)."""
    try:
        return symbol_to_expr(value).symbol_set() <= inputs
    except FAILURES:  # (not a dim value: a real)
        return False
