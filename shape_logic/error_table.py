"""The table of a graph whose solve has errors (solver._solve): the answer with the errors
in it, or, when every error is a declaration's, the graph's without those declarations."""
from __future__ import annotations

from dataclasses import replace

from .decode import Decoded, decode
from .limits import Abandoned, TimeLimit


def fixed_table(problem) -> Decoded | None:
    """The shapes the table of a graph whose errors are all declarations' shows: the
    graph's with those declarations switched off (as explaining did), its floors found
    anew. The answer with the errors in it has values that collide at their places, and
    what was computed from either value downstream (x [1, 2, 2*s] max-pooled by 2 with
    stride 1, added to x, declared [1, 2, s]: s - 1 beside 2*s - 1, floors s >= 2); without
    them the table shows what the graph gives, as each diagnostic does. None where a node
    is an error's (switched off, its outputs would lose their dtype and rank: the table
    keeps the colliding values' `?`), or when the graph still conflicts or its solve runs
    out of time (the errors stand either way)."""
    if any(s.arguments[0].name == "node" for s in problem.switched_off):
        return None
    fixed = replace(problem, off=problem.switched_off, floors={}, ceilings={},
                    floors_everywhere=False, prefix={})
    try:
        atoms, _ = fixed.atoms()
    except (TimeLimit, Abandoned):
        return None
    try:
        return None if atoms.conflicts else decode(problem.graph, atoms)
    finally:
        atoms.release_control()
