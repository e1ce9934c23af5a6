"""Random sequences and optionals for bench/fuzz.py (`--kind seq`), built by execution.

Sequences (SequenceConstruct, SequenceEmpty, SequenceInsert, SequenceErase, SequenceAt,
SequenceLength, SplitToSequence, ConcatFromSequence) of elements of one shape or of
several; positions constant, negative, computed (from SequenceLength, from a dim) or graph
inputs; lengths feeding shape computations (Range, ConstantOfShape, Reshape); sizes put in
a sequence and taken out again (g_sizes). Optionals
(Optional of a tensor or a sequence, or empty of a `type`; OptionalHasElement feeding sizes
and conditions; OptionalGetElement). Control flow around them: an If returning sequences
or optionals (one side empty), a Loop growing a list by SequenceInsert, a Loop reading a
sequence element by element. The executor holds a sequence as a list of arrays, an empty
optional as None (fuzz_values.py); the Builder keeps them so. The control flow and the
graphs are fuzz_seq_control.py's.
"""
from __future__ import annotations

import numpy as np
from fuzz_control import scalar_input
from fuzz_graphs import Builder

DTYPES = {"f32": np.float32, "i64": np.int64}
ONNX_DTYPE = {"f32": 1, "i64": 7}


def _root(b: Builder) -> Builder:
    return getattr(b, "root", b)


def seq_dtypes(b: Builder) -> dict:
    """Each sequence's element dtype ("f32" or "i64"): an empty one's too."""
    root = _root(b)
    if not hasattr(root, "seq_dtypes"):
        root.seq_dtypes = {}
    return root.seq_dtypes


def seqs(b: Builder, dtype: str | None = None, nonempty: bool = False) -> list[str]:
    """The sequences b sees (not those in optionals), of dtype, maybe of 1 element or more."""
    dts = seq_dtypes(b)
    return [t for t, a in b.values.items() if isinstance(a, list) and t not in b.optionals
            and (dtype is None or dts.get(t) == dtype) and (len(a) or not nonempty)]


def pick_seq(b: Builder, nonempty: bool = False) -> str | None:
    pool = seqs(b, nonempty=nonempty)
    return b.rng.choice(pool) if pool else None


def add_seq(b: Builder, op: str, inputs: list, dtype: str, attrs=None, fail=False):
    """b.add of a node making a sequence of `dtype` elements."""
    out = b.add(op, inputs, attrs, allow_failure=fail)
    if out:
        seq_dtypes(b)[out[0]] = dtype
    return out


def dtype_of(b: Builder, t: str) -> str:
    a = b.values[t]
    if isinstance(a, list):
        return seq_dtypes(b).get(t, "f32")
    return "i64" if a.dtype == np.int64 else "f32"


def like(b: Builder, shape, dtype: str) -> str:
    """A tensor of dtype: one of the graph's, or a new input of `shape` (maybe one axis
    changed, so that the elements of a sequence differ there)."""
    shape = list(shape)
    r = b.rng.random()
    if r < 0.3:
        t = b.pick(dtype=dtype)
        if t is not None:
            return t
    if shape and r < 0.6:
        shape[b.rng.randrange(len(shape))] = b.rng.randint(1, 4)
    return b.new_input(shape, dtype)


def position(b: Builder, s: str, past_end: bool, fail: bool) -> str | None:
    """A position in sequence s (scalar i64): a constant (maybe negative), computed from
    SequenceLength or from a dim, or a graph input; with `fail`, one out of range (known)."""
    n = len(b.values[s])
    hi = n if past_end else n - 1
    if fail:
        return b.const(b.rng.choice([hi + 1, -n - 1, hi + 2]))
    if hi < -n:
        return None
    k = b.rng.randint(-n, hi)
    r = b.rng.random()
    if r < 0.45:
        return b.const(k)
    if r < 0.7:  # SequenceLength(s) - (n - k) = k
        length = b.add("SequenceLength", [s])
        out = length and b.add("Sub", [length[0], b.const(n - k)])
        return out and out[0]
    if r < 0.85:  # a dim d of a tensor, minus d - k
        x = b.pick(min_rank=1)
        if x is None:
            return b.const(k)
        a = b.rng.randrange(b.values[x].ndim)
        d = b.add("Gather", [b.add("Shape", [x])[0], b.const(a)], {"axis": 0})
        out = d and b.add("Sub", [d[0], b.const(int(b.values[d[0]]) - k)])
        return out and out[0]
    return scalar_input(b, np.array(k, np.int64), "i64")


def g_construct(b: Builder, fail: bool):
    dtype = b.rng.choice(["f32", "f32", "i64"])
    x = b.pick(dtype=dtype) or b.new_input(b.random_shape(), dtype)
    elems = [x]
    for _ in range(b.rng.randint(0, 2)):
        elems.append(x if b.rng.random() < 0.3 else like(b, b.values[x].shape, dtype))
    if fail:  # an element of another dtype
        other = "i64" if dtype == "f32" else "f32"
        elems.insert(b.rng.randint(0, len(elems)), b.new_input(b.random_shape(), other))
    return add_seq(b, "SequenceConstruct", elems, dtype, fail=fail)


def g_empty(b: Builder, fail: bool):
    dtype = b.rng.choice(["f32", "f32", "i64"])
    attrs = {"dtype": ONNX_DTYPE[dtype]} if dtype != "f32" or b.rng.random() < 0.5 else None
    return add_seq(b, "SequenceEmpty", [], dtype, attrs)


def g_insert(b: Builder, fail: bool):
    s = pick_seq(b)
    if s is None:
        return g_construct(b, fail)
    dtype, elems = dtype_of(b, s), b.values[s]
    shape = elems[b.rng.randrange(len(elems))].shape if elems else b.random_shape()
    x = like(b, shape, dtype)
    wrong_dtype = fail and b.rng.random() < 0.3
    if wrong_dtype:
        x = b.new_input(list(shape), "i64" if dtype == "f32" else "f32")
    ins = [s, x]
    if b.rng.random() < 0.7 or (fail and not wrong_dtype):
        pos = position(b, s, past_end=True, fail=fail and not wrong_dtype)
        if pos is None:
            return None
        ins.append(pos)
    return add_seq(b, "SequenceInsert", ins, dtype, fail=fail)


def g_erase(b: Builder, fail: bool):
    s = pick_seq(b, nonempty=not fail)
    if s is None:
        return None
    ins = [s]
    if b.rng.random() < 0.7 or (fail and b.values[s]):
        pos = position(b, s, past_end=False, fail=fail)
        if pos is None:
            return None
        ins.append(pos)
    return add_seq(b, "SequenceErase", ins, dtype_of(b, s), fail=fail)


def g_at(b: Builder, fail: bool):
    s = pick_seq(b, nonempty=not fail)
    pos = s and position(b, s, past_end=False, fail=fail)
    return pos and b.add("SequenceAt", [s, pos], allow_failure=fail)


def g_length(b: Builder, fail: bool):
    """SequenceLength, maybe plus a constant, as a size: Range, ConstantOfShape, a Reshape
    target, Tile's repeats."""
    s = pick_seq(b)
    n = s and b.add("SequenceLength", [s])
    if not n:
        return None
    v = n[0]
    if b.rng.random() < 0.5:
        v = (b.add(b.rng.choice(["Add", "Mul"]), [v, b.const(b.rng.choice([1, 2]))])
             or [v])[0]
    if int(b.values[v]) < 1:
        return n
    use = b.rng.choice(["Range", "ConstantOfShape", "Reshape", "Tile"])
    if use == "Range":
        return b.add("Range", [b.const(0), v, b.const(1)])
    vec = b.add("Unsqueeze", [v, b.const([0])])
    if not vec:
        return None
    if use == "ConstantOfShape":
        return b.add("ConstantOfShape", [vec[0]])
    x = b.pick(min_rank=1)
    if x is None:
        return None
    if use == "Tile":
        ones = b.const([1] * (b.values[x].ndim - 1))
        reps = b.add("Concat", [vec[0], ones], {"axis": 0})
        return reps and b.add("Tile", [x, reps[0]])
    target = b.add("Concat", [vec[0], b.const([-1])], {"axis": 0})
    return target and b.add("Reshape", [x, target[0]], allow_failure=fail)


def g_split(b: Builder, fail: bool):
    x = b.pick(min_rank=1, dtype=b.rng.choice(["f32", "f32", "i64"]))
    if x is None:
        return None
    shape = b.values[x].shape
    axis = b.rng.randrange(len(shape))
    d = shape[axis]
    attrs = {"axis": axis - len(shape) if b.rng.random() < 0.3 else axis}
    ins = [x]
    r = b.rng.random()
    if r < 0.35 and not fail:  # pieces of 1, the axis kept or not
        if b.rng.random() < 0.5:
            attrs["keepdims"] = b.rng.randint(0, 1)
    elif r < 0.55 and not fail:  # pieces of a scalar size, the last smaller
        ins.append(b.const(b.rng.randint(1, d)))
    elif r < 0.65 and not fail:  # ... a size computed: the axis's own, halved maybe
        size = b.add("Gather", [b.add("Shape", [x])[0], b.const(axis)], {"axis": 0})
        if size and d >= 2 and b.rng.random() < 0.5:
            size = b.add("Div", [size[0], b.const(2)])
        if not size:
            return None
        ins.append(size[0])
    else:  # listed sizes
        sizes = []
        left = d
        while left:
            sizes.append(b.rng.randint(1, left))
            left -= sizes[-1]
        if fail:
            sizes[b.rng.randrange(len(sizes))] += 1
        ins.append(b.const(sizes))
        if b.rng.random() < 0.3:
            attrs["keepdims"] = 0  # (ignored with a split)
    return add_seq(b, "SplitToSequence", ins, dtype_of(b, x), attrs, fail=fail)


def g_concat_from(b: Builder, fail: bool):
    """ConcatFromSequence along the one axis where the elements differ (any where they
    agree), or stacked along a new axis; with `fail`, anywhere."""
    s = pick_seq(b, nonempty=True)
    if s is None:
        return None
    elems = b.values[s]
    rank = elems[0].ndim
    if any(e.ndim != rank for e in elems):
        return None if not fail else b.add("ConcatFromSequence", [s], {"axis": 0},
                                           allow_failure=True)
    differ = [i for i in range(rank) if len({e.shape[i] for e in elems}) > 1]
    new = 0 if differ or rank == 0 else b.rng.randint(0, 1)
    r = rank + new
    if r == 0 or len(differ) > 1 and not fail:
        return None
    axis = differ[0] if differ and not fail else b.rng.randrange(r)
    if b.rng.random() < 0.3:
        axis -= r
    attrs = {"axis": axis, **({"new_axis": new} if new or b.rng.random() < 0.3 else {})}
    return b.add("ConcatFromSequence", [s], attrs, allow_failure=fail)


def g_sizes(b: Builder, fail: bool):
    """Sizes put in a sequence and taken out again to size a ConstantOfShape, so that what
    the solver says of the elements' values is checked where the graph runs: shape vectors
    (an element by SequenceAt, or all joined by ConcatFromSequence) or dims as scalars
    (stacked)."""
    scalars = b.rng.random() < 0.3
    elems = []
    for _ in range(b.rng.randint(1, 3)):
        x = b.pick(min_rank=1)
        sh = x and b.add("Shape", [x])
        if scalars and sh:
            sh = b.add("Gather", [sh[0], b.const(b.rng.randrange(b.values[x].ndim))],
                       {"axis": 0})
        if not sh:
            return None
        elems.append(sh[0])
    s = add_seq(b, "SequenceConstruct", elems, "i64")
    if not s:
        return None
    if b.rng.random() < 0.4 and not scalars:
        v = b.add("SequenceAt", [s[0], b.const(b.rng.randrange(-len(elems), len(elems)))])
    else:
        v = b.add("ConcatFromSequence", [s[0]], {"axis": 0, "new_axis": int(scalars)})
    if not v or int(np.prod(b.values[v[0]])) > 4096:
        return None
    return b.add("ConstantOfShape", v)


def opt_type(b: Builder, dtype: str, like_value=None) -> dict:
    """An Optional's `type` attribute: a tensor of dtype (dims as the element's, other or
    unknown) or a sequence of them."""
    if isinstance(like_value, list) or (like_value is None and b.rng.random() < 0.2):
        return {"dtype": dtype, "sequence": True}
    shape = list(like_value.shape) if like_value is not None else b.random_shape()
    dims = [b.rng.choice([d, d, "?", d + 1]) for d in shape]
    return {"dtype": dtype, "shape": "[" + ", ".join(map(str, dims)) + "]"}


def add_opt(b: Builder, inputs: list, attrs=None):
    """An Optional node; its output is one of b's optionals."""
    x = inputs[0] if inputs else None
    out = b.add("Optional", inputs, attrs)
    if out:
        b.optionals.add(out[0])
        if x is not None and isinstance(b.values[x], list):
            seq_dtypes(b)[out[0]] = dtype_of(b, x)
        elif attrs and attrs["type"].get("sequence"):
            seq_dtypes(b)[out[0]] = attrs["type"]["dtype"]
    return out


def g_optional(b: Builder, fail: bool):
    if b.rng.random() < 0.4:
        return add_opt(b, [], {"type": opt_type(b, b.rng.choice(["f32", "i64"]))})
    x = pick_seq(b) if b.rng.random() < 0.25 else b.pick()
    return x and add_opt(b, [x])


def optionals(b: Builder, has: bool | None = None) -> list[str]:
    return [t for t in b.optionals if t in b.values
            and (has is None or (b.values[t] is not None) == has)]


def g_has(b: Builder, fail: bool):
    """OptionalHasElement of an optional (or of a plain tensor), as a size: Cast to int64,
    plus 1, a Range of that many."""
    pool = optionals(b)
    o = b.rng.choice(pool) if pool and b.rng.random() < 0.9 else b.pick()
    h = o and b.add("OptionalHasElement", [o])
    if not h or b.rng.random() < 0.3:
        return h
    n = b.add("Cast", [h[0]], {"to": 7})
    n = n and b.add("Add", [n[0], b.const(1)])
    return n and b.add("Range", [b.const(0), n[0], b.const(1)])


def g_get(b: Builder, fail: bool):
    pool = optionals(b, has=not fail)
    if not pool:
        return None if fail or b.rng.random() < 0.5 else g_optional(b, fail)
    o = b.rng.choice(pool)
    out = b.add("OptionalGetElement", [o], allow_failure=fail)
    if out and out[0] in b.values and isinstance(b.values[out[0]], list):
        seq_dtypes(b)[out[0]] = seq_dtypes(b).get(o, "f32")
    return out


SEQ_GENERATORS = {g.__name__[2:]: g for g in (
    g_construct, g_empty, g_insert, g_erase, g_at, g_length, g_split, g_concat_from,
    g_optional, g_has, g_get, g_sizes)}
# (construct, empty, insert, erase, at, length, split, concat_from, optional, has, get, sizes)
WEIGHTS = [3, 1, 3, 2, 3, 2, 3, 3, 2, 2, 3, 2]
