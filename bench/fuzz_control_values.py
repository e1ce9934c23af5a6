"""Control flow that computes sizes, for bench/fuzz_control.py; a ConstantOfShape after
the node is sized by its output, so what the solver says of its values is checked where
the graph runs.

- If nodes whose branches compute shapes: each branch gives an i64 vector made from the
  shape of a tensor it sees (Shape, a part of one, a dim gathered, maybe plus a
  constant); often both follow the same recipe (the same values either way, reached by
  other tensors' names).
- Loops carrying a size: a dim of a tensor, changed in every iteration by a step of a few
  operations (adding a constant or the iteration number, multiplying, floor-dividing,
  the max or min with another dim...), of a constant trip count (0 to 5, or 9: more than
  the solver follows), maybe with a condition true at the start and passed on."""
from __future__ import annotations

import random

import numpy as np
from fuzz_control import Sub, add_control, bool_tensor, condition, scalar_of_shape


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


# a carried size's step: (operator, whether its other operand is the iteration number, a
# dim around the loop or a constant)
STEPS = [("Add", "const"), ("Add", "iteration"), ("Mul", "const"), ("Div", "const"),
         ("Max", "dim"), ("Min", "dim"), ("Add", "dim"), ("Mod", "const")]


def g_loop_values(b, fail: bool):
    """A Loop of a constant trip count carrying a dim (and maybe a second one), each
    changed by a few steps per iteration; a ConstantOfShape of the final one."""
    carried = [scalar_of_shape(b) for _ in range(b.rng.choice([1, 1, 2]))]
    if not all(carried):
        return None
    m = b.const(b.rng.choice([0, 1, 2, 3, 5, 9]))
    cond = bool_tensor(b, True, False) if b.rng.random() < 0.3 else ""
    i, ci = b.name("i"), b.name("cin")
    s = Sub(b, {i: np.array(0, np.int64), ci: np.array(True)})
    params = [s.name("v") for _ in carried]
    s.params = [i, ci] + params
    s.values.update({p: b.values[v] for p, v in zip(params, carried)})
    co = s.add("Identity", [ci])
    nexts = []
    for p in params:
        nxt = p
        for _ in range(s.rng.randint(1, 3)):
            op, other = s.rng.choice(STEPS)
            x = (i if other == "iteration" else
                 scalar_of_shape(s) if other == "dim" else s.const(s.rng.randint(1, 3)))
            if op == "Add" and other == "dim" and len(params) == 2:
                x = s.rng.choice(params)  # (the other carried value, or itself)
            nxt = (s.add(op, [nxt, x]) or [nxt])[0] if x else nxt
        nexts.append(nxt)
    if co is None:
        return None
    out = add_control(b, "Loop", [m, cond, *carried], {"body": s.body([co[0], *nexts])},
                      len(carried), fail)
    if not out or int(b.values[out[-1]]) > 4096:
        return None
    vec = b.add("Unsqueeze", [out[-1], b.const([0])])
    return vec and b.add("ConstantOfShape", vec)


CONTROL_VALUES = [g_if_values, g_loop_values]
