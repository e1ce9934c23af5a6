"""If nodes whose branches compute shapes, for bench/fuzz_control.py: each branch gives an
i64 vector made from the shape of a tensor it sees (Shape, a part of one, a dim gathered,
maybe plus a constant), and a ConstantOfShape after the If is sized by it. Often both
branches follow the same recipe (the same values either way, reached by other tensors'
names): what the solver says of the output's values is then checked where the graph
runs, against the branch the condition takes."""
from __future__ import annotations

import random

from fuzz_control import Sub, add_control, condition


def shape_vector(s: Sub) -> str | None:
    """An i64 vector from the shape of a tensor `s` sees (rank >= 1)."""
    x = s.pick(min_rank=1)
    if x is None:
        return None
    rank, r = s.values[x].ndim, s.rng.random()
    if r < 0.4:
        out = s.add("Shape", [x])
    elif r < 0.6:
        out = s.add("Shape", [x], {"start": s.rng.randrange(rank)})
    elif r < 0.8:
        sh = s.add("Shape", [x])
        out = sh and s.add("Gather", [sh[0], s.const([s.rng.randrange(rank)])], {"axis": 0})
    else:  # the shape of x through a node that keeps it
        y = s.add("Relu", [x])
        out = y and s.add("Shape", y)
    if out and s.rng.random() < 0.3:
        out = s.add("Add", [out[0], s.const([s.rng.choice([0, 1])])])
    return out and out[0]


def g_if_values(b, fail: bool):
    """If of two branches computing shapes (the same recipe in both, half the time), and a
    ConstantOfShape of its output."""
    c = condition(b, known=fail)
    if c is None:
        return None
    recipe = b.rng.randrange(2**31)
    same = b.rng.random() < 0.5
    branches = {}
    for key in ("then_branch", "else_branch"):
        s = Sub(b)
        s.rng = random.Random(recipe if same or key == "then_branch" else recipe + 1)
        v = shape_vector(s)
        s.rng = b.rng
        if v is None:
            return None
        branches[key] = s.body([v])
    out = add_control(b, "If", [c], branches, 1, fail)
    return out and b.add("ConstantOfShape", out)  # zeros, f32
