"""Control flow of sequences and optionals for bench/fuzz.py (`--kind seq`): an If
returning sequences or optionals (one side maybe empty), a Loop growing a list by
SequenceInsert, a Loop reading a sequence element by element, a Loop carrying an
optional; and the graphs of the kind (build_seq), with the generators of fuzz_seq.py.
"""
from __future__ import annotations

import numpy as np
from fuzz_control import BODY_KINDS, Sub, bool_tensor, condition, grown, trip_count
from fuzz_graphs import GENERATORS, Builder
from fuzz_seq import (DTYPES, SEQ_GENERATORS, WEIGHTS, add_opt, add_seq, like, opt_type,
                      pick_seq, seq_dtypes, seqs)

MAX_DEPTH = 2


def fill(s: Sub, steps: int) -> None:
    """A few random nodes in a body: sequence and optional ones, tensor ones, nested
    control flow while not too deep."""
    for _ in range(steps):
        r = s.rng.random()
        if s.depth < MAX_DEPTH and r < 0.15:
            s.rng.choice(CONTROL)(s, False)
        elif r < 0.6:
            SEQ_GENERATORS[s.rng.choice(list(SEQ_GENERATORS))](s, False)
        else:
            GENERATORS[s.rng.choice(BODY_KINDS)](s, False)


def _own(s: Sub, want: str, dtype: str | None = None) -> list[str]:
    """What the body made of a kind (tensor, seq, opt), or the outer values of that kind."""
    def kind(t):
        a = s.values[t]
        return "opt" if t in s.optionals else "seq" if isinstance(a, list) else "tensor"
    pool = [t for t in s.values if not t.startswith("c") and kind(t) == want
            and (dtype is None or (kind(t) == "tensor" and s.values[t].dtype == DTYPES[dtype])
                 or (kind(t) != "tensor" and seq_dtypes(s).get(t) == dtype))
            and not (want == "opt" and isinstance(s.values[t], list))]
    own = [t for t in pool if t.startswith("t" + s.tag)]
    return own if own and s.rng.random() < 0.8 else pool


def g_if(b: Builder, fail: bool):
    """If whose outputs are sequences (built in each branch, of lengths that may differ,
    or one around it) or optionals (one side maybe empty: an Optional of the branch's
    `type`), or a tensor beside them."""
    c = condition(b)
    if c is None:
        return None
    want = b.rng.choice(["seq", "opt", "opt", "tensor"])
    dtype = "f32"
    branches, empty_side = {}, b.rng.choice([None, "then_branch", "else_branch"])
    elem = None
    order = ("then_branch", "else_branch") if empty_side != "then_branch" else \
        ("else_branch", "then_branch")  # (the empty side's type is like the other's element)
    for key in order:
        s = Sub(b)
        fill(s, b.rng.randint(0, 3))
        if want == "seq":
            pool = _own(s, "seq", dtype)
            if not pool or s.rng.random() < 0.5:
                x = s.pick() or s.new_input(s.random_shape())
                out = add_seq(s, "SequenceConstruct",
                              [x] + [like(s, s.values[x].shape, dtype)
                                     for _ in range(s.rng.randint(0, 2))], dtype)
                pool = out or []
        elif want == "opt":
            if key == empty_side:
                out = add_opt(s, [], {"type": opt_type(s, dtype, elem)})
            else:
                x = s.pick() or s.new_input(s.random_shape())
                out = add_opt(s, [x])
                elem = s.values[x]
            pool = out or []
        else:
            pool = _own(s, "tensor", dtype)
        if not pool:
            return None
        branches[key] = s.body([s.rng.choice(pool)])
    out = b.add("If", [c], branches)
    if out and want == "opt":
        b.optionals.add(out[0])
    if out and want == "seq":
        seq_dtypes(b)[out[0]] = dtype
    return out


def g_loop(b: Builder, fail: bool):
    """Loop growing a list: a sequence carried from empty (or from one around it), the
    body inserting a tensor (the same each round, or one that grows with the iteration
    count) at the end, the front or a computed place; maybe the lengths as scan outputs."""
    m = trip_count(b)
    r = b.rng.random()
    cond = "" if r < 0.5 else bool_tensor(b, True, False) if r < 0.8 else condition(b) or ""
    dtype = "f32"
    init = seqs(b, dtype)
    s0 = b.rng.choice(init) if init and b.rng.random() < 0.4 else \
        add_seq(b, "SequenceEmpty", [], dtype, {"dtype": 1} if b.rng.random() < 0.5 else None)
    if not s0:
        return None
    s0 = s0 if isinstance(s0, str) else s0[0]
    i, ci = b.name("i"), b.name("cin")
    s = Sub(b, {i: np.array(0, np.int64), ci: np.array(True)})
    v = s.name("v")
    s.params = [i, ci, v]
    s.values[v] = b.values[s0]
    seq_dtypes(b)[v] = dtype
    co = s.add("Identity", [ci]) if cond else s.add("Less", [i, s.const(s.rng.randint(1, 4))])
    fill(s, s.rng.randint(0, 2))
    x = s.pick(min_rank=1) or s.new_input(s.random_shape(s.rng.randint(1, 3)))
    if s.rng.random() < 0.4:  # an element that grows: x[:i + 1] along an axis
        a = s.rng.randrange(s.values[x].ndim)
        end = s.add("Add", [i, s.const(1)])
        end = end and s.add("Unsqueeze", [end[0], s.const([0])])
        x = end and (s.add("Slice", [x, s.const([0]), end[0], s.const([a])]) or [None])[0]
    if not x or co is None:
        return None
    ins = [v, x]
    where = s.rng.random()
    if where < 0.3:
        ins.append(s.const(0))
    elif where < 0.5:
        n = s.add("SequenceLength", [v])
        ins += n or []
    nxt = add_seq(s, "SequenceInsert", ins, dtype)
    if not nxt:
        return None
    scans = []
    if s.rng.random() < 0.4:
        n = s.add("SequenceLength", [nxt[0]])
        scans = n or []
    body = s.body([co[0], nxt[0], *scans])
    out = b.add("Loop", [m, cond, s0], {"body": body}, n_out=1 + len(scans))
    if out:
        seq_dtypes(b)[out[0]] = dtype
    return out


def g_loop_over(b: Builder, fail: bool):
    """Loop over a sequence's elements (trip count SequenceLength, SequenceAt(s, i) in the
    body): a carried sum and the elements' sums as scan outputs."""
    s = pick_seq(b, nonempty=True)
    if s is None or seq_dtypes(b).get(s) != "f32":
        return None
    n = b.add("SequenceLength", [s])
    if not n:
        return None
    acc0 = b.const(0.0, "f32")
    i, ci, v = b.name("i"), b.name("cin"), None
    sub = Sub(b, {i: np.array(0, np.int64), ci: np.array(True)})
    v = sub.name("v")
    sub.params = [i, ci, v]
    sub.values[v] = b.values[acc0]
    e = sub.add("SequenceAt", [s, i])
    total = e and sub.add("ReduceSum", [e[0]], {"keepdims": 0})
    nxt = total and sub.add("Add", [v, total[0]])
    if not nxt:
        return None
    outs = [sub.add("Identity", [ci])[0], nxt[0]]
    if sub.rng.random() < 0.5:
        outs.append(total[0] if sub.rng.random() < 0.5 else sub.add("Relu", [e[0]])[0])
    return b.add("Loop", [n[0], "", acc0], {"body": sub.body(outs)}, n_out=len(outs) - 1)


def g_loop_opt(b: Builder, fail: bool):
    """Loop carrying an optional: empty at first (or holding a tensor), set in the body to
    an Optional of a tensor (one that may grow with the iteration count) or kept as it is;
    maybe whether it holds one as a scan output."""
    m = trip_count(b)
    x = b.pick() or b.new_input(b.random_shape())
    o0 = add_opt(b, [], {"type": opt_type(b, "f32", b.values[x])}) \
        if b.rng.random() < 0.6 else add_opt(b, [x])
    if not o0:
        return None
    i, ci = b.name("i"), b.name("cin")
    s = Sub(b, {i: np.array(0, np.int64), ci: np.array(True)})
    v = s.name("v")
    s.params = [i, ci, v]
    s.values[v] = b.values[o0[0]]
    s.optionals.add(v)
    co = s.add("Identity", [ci])
    r = s.rng.random()
    if r < 0.3:
        nxt = s.add("Identity", [v])
    else:
        e = s.add("Relu", [x])
        if r < 0.6 and s.values[x].ndim:
            a = s.rng.randrange(s.values[x].ndim)
            end = s.add("Add", [i, s.const(1)])
            end = end and s.add("Unsqueeze", [end[0], s.const([0])])
            e = end and s.add("Slice", [x, s.const([0]), end[0], s.const([a])])
        nxt = e and add_opt(s, [e[0]])
    if not nxt or not co:
        return None
    s.optionals.add(nxt[0])
    outs = [co[0], nxt[0]]
    if s.rng.random() < 0.4:
        outs += s.add("OptionalHasElement", [v]) or []
    out = b.add("Loop", [m, "", o0[0]], {"body": s.body(outs)}, n_out=len(outs) - 1)
    if out:
        b.optionals.add(out[0])
    return out


CONTROL = [g_if, g_loop, g_loop_over, g_loop_opt]


def build_seq(rng, max_nodes: int = 7) -> Builder:
    """A random graph of sequences and optionals (and tensor nodes around them, control
    flow carrying them); with probability 0.15 its last node may fail in the executor (a
    position out of range, pieces that do not cut the axis, elements that do not concat,
    an element of another dtype, the element of an empty optional)."""
    def step(b, last):
        r = rng.random()
        if last:
            SEQ_GENERATORS[rng.choice(FAILING)](b, True)
        elif r < 0.2:
            rng.choice(CONTROL)(b, False)
        elif r < 0.75:
            SEQ_GENERATORS[rng.choices(list(SEQ_GENERATORS), WEIGHTS)[0]](b, False)
        else:
            GENERATORS[rng.choice(list(GENERATORS))](b, False)
    return grown(rng, max_nodes, step)


FAILING = ["construct", "insert", "erase", "at", "split", "concat_from", "get"]
