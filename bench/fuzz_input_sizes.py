"""Sizes a graph input holds, for bench/fuzz_ops.py (`--kind ops`): ConstantOfShape, Tile,
Split and TopK reading their sizes from an i64 graph input, which each fails on if negative:
counts.lp's size_read makes each element a name of its own, `_c1`, that the checker binds by
the executed shapes. Now and then two nodes read one input (one name for both)."""
from __future__ import annotations

import numpy as np

from fuzz_graphs import Builder
from fuzz_ops import pick_or_new


def _value_input(b: Builder, vals) -> str:
    """A graph input holding vals: one that does already (half the time), else a new one."""
    same = [t for t in b.graph["inputs"] if b.values[t].dtype == np.int64
            and b.values[t].shape == np.shape(vals) and (b.values[t] == vals).all()]
    if same and b.rng.random() < 0.5:
        return b.rng.choice(same)
    return b.value_input(vals)


def g_input_sizes(b, fail):
    """Sizes a graph input holds, read by a node that fails on a negative one (counts.lp's
    size_read: a name of its own each), an input now and then read by two nodes."""
    kind = b.rng.choice(["ConstantOfShape", "Tile", "Split", "TopK"])
    if kind == "ConstantOfShape":
        return b.add("ConstantOfShape", [_value_input(b, [b.rng.randint(1, 4) for _ in range(
            b.rng.randint(1, 3))])])
    x = pick_or_new(b, 1, 3)
    shape = b.values[x].shape
    if kind == "Tile":
        reps = [b.rng.randint(1, 3) for _ in shape]
        return b.add("Tile", [x, _value_input(b, reps)])
    axis = b.rng.randrange(len(shape))
    d = shape[axis]
    if kind == "TopK":
        k = b.rng.randint(1, d) + (1 if fail else 0)
        return b.add("TopK", [x, _value_input(b, [k])], {"axis": axis}, n_out=2,
                     allow_failure=fail)
    if d < 2:
        return None
    cut = b.rng.randint(1, d - 1)
    return b.add("Split", [x, _value_input(b, [cut, d - cut + (1 if fail else 0)])],
                 {"axis": axis}, n_out=2, allow_failure=fail)
