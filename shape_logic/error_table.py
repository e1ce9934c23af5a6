"""The table of a graph whose solve has errors (solver._solve): the answer with the errors
in it, or the graph's without the errors' declarations or nodes."""
from __future__ import annotations

from dataclasses import replace

from .decode import Decoded, decode
from .limits import Abandoned, TimeLimit


def fixed_table(problem, answer: Decoded) -> Decoded | None:
    """The shapes the table of a graph with errors shows, where not `answer` (the one with
    the errors in it): the graph's with the errors' sources switched off (as explaining
    did), its floors found anew; None to keep `answer`, or when the graph still conflicts
    or its solve runs out of time (the errors stand either way).

    Every error a declaration's: the answer has values that collide at their places, and
    what was computed from either value downstream (x [1, 2, 2*s] max-pooled by 2 with
    stride 1, added to x, declared [1, 2, s]: s - 1 beside 2*s - 1, floors s >= 2); without
    them the table shows what the graph gives, as each diagnostic does.

    A node's error: switched off, its outputs lose their dtype and rank, so the answer
    stays, unless its colliding values bound a name of the graph's inputs that the graph
    without them leaves free. past_k with 4 heads for the graph's 2 made 32*b*(p + s) =
    64*b*(p + s) downstream, so seq = 0 - past_seq, and the table gave present_v
    [batch, 2, 0, 8]. Then the table is the graph's without the error, and a tensor it
    leaves without a rank has the answer's, with no size (its sizes came from the bound
    values)."""
    nodes = any(s.arguments[0].name == "node" for s in problem.switched_off)
    # (a name of the graph's inputs bound: by the colliding values, if the graph without
    # the error leaves it free; a declared output's name bound through the node is no sign)
    given = {s for info in list(problem.graph.inputs.values()) +
             list(problem.graph.initializers.values()) if info.shape is not None
             for s in info.shape.symbols()}
    bound = {s: e for s, e in answer.bindings.items() if s in given}
    if nodes and not bound:
        return None
    fixed = replace(problem, off=problem.switched_off, floors={}, ceilings={},
                    floors_everywhere=False, prefix={})
    try:
        table = answer_without_conflict(fixed)
    except (TimeLimit, Abandoned):
        return None
    if table is None:
        return None
    if not nodes:
        return table
    if all(table.bindings.get(s) == e for s, e in bound.items()):
        return None
    for t, shape in answer.shapes.items():
        if table.shapes.get(t) is None and shape is not None:
            table.shapes[t] = shape
            table.conflicted |= {(t, i) for i in range(len(shape.dims))}
            if table.dtypes.get(t) is None:
                table.dtypes[t] = answer.dtypes.get(t)
    return table


def answer_without_conflict(problem, allowance: int | None = None) -> Decoded | None:
    """The decoded answer of `problem`'s whole graph, or None where it conflicts (past
    `allowance` computations: limits.Abandoned)."""
    atoms, _ = problem.atoms(allowance=allowance)
    try:
        return None if atoms.conflicts else decode(problem.graph, atoms)
    finally:
        atoms.release_control()
