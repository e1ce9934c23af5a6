"""Random control flow for bench/fuzz.py: If, Loop and Scan nodes, built by execution.

A body is built like a graph, by a `Sub` builder: the generators of fuzz_graphs.py run
inside it on its inputs and on the tensors of the graph around it (ONNX's outer scope),
with its first iteration's (or its branch's) values; then the node's kernel runs the
body, which gives the true shapes. Conditions and trip counts are constants, graph
inputs, or computed from shapes (Equal(Gather(Shape(x), i), k), Greater, Not ...). Where
the solver cannot know the condition, what the branches do not agree on is a fresh name
or an unknown rank, which the oracle accepts: it checks the dims the solver states.

A body may also hold a "requirement" that is not executed when it is built: a Squeeze of
a tensor around it at a random axis, which fails if the body runs and the axis is not 1.
Such a body must not bind the graph's names unless it surely runs (a branch the
condition takes, a loop that runs, a non-empty scan), and a graph whose taken branch
or running body fails that way is an inconsistent one (with `fail`, kept to be caught).
"""
from __future__ import annotations

import numpy as np
from fuzz_graphs import GENERATORS, Builder
from fuzz_values import is_tensor

# the generators that run inside bodies (no new control flow: nesting is ours to pick)
BODY_KINDS = ["unary", "binary", "where", "transpose", "reshape", "flatten", "concat",
              "unsqueeze", "squeeze", "reduce", "expand", "slice", "tile", "gather",
              "shape_arith", "softmax"]
COMPARE = ["Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"]
MAX_DEPTH = 2


class Sub(Builder):
    """A body under construction: nodes and initializers of its own; it sees the values
    around it (its parent's) and its inputs' first values; new graph inputs go to the
    root graph."""

    def __init__(self, parent: Builder, inputs: dict | None = None):
        self.parent = parent
        self.root = getattr(parent, "root", parent)
        self.rng, self.np_rng, self.symbolic = parent.rng, parent.np_rng, parent.symbolic
        self.graph = {"inputs": {}, "initializers": {}, "nodes": []}
        self.values = {**parent.values, **(inputs or {})}
        self.params = list(inputs or {})
        self.symbols, self.ops, self.failed_op = self.root.symbols, self.root.ops, None
        self.optionals = self.root.optionals
        self.root.n_bodies = getattr(self.root, "n_bodies", 0) + 1
        self.tag, self.k = f"b{self.root.n_bodies}_", 0
        self.depth = getattr(parent, "depth", 0) + 1

    def name(self, prefix="t") -> str:
        self.k += 1
        return f"{prefix}{self.tag}{self.k}"

    def new_input(self, shape, dtype="f32") -> str:
        return seen(self, self.root.new_input(shape, dtype))

    def own(self, dtype=np.float32) -> list[str]:
        """The tensors this body made (not its inputs, not constants), of dtype."""
        return [t for t, a in self.values.items() if t.startswith("t" + self.tag)
                and is_tensor(self, t) and a.dtype == dtype]

    def body(self, outputs: list[str]) -> dict:
        """The body graph object; a tensor output twice is copied (Identity) the second
        time: the outputs are a list of names, read as a dict of declarations."""
        outs = []
        for t in outputs:
            outs.append(t if t not in outs else self.add("Identity", [t])[0])
        g = {"inputs": list(self.params), "outputs": outs, "nodes": self.graph["nodes"]}
        if self.graph["initializers"]:
            g["initializers"] = self.graph["initializers"]
        return g


def seen(b: Builder, t: str) -> str:
    """t, a new tensor of the root graph, made visible in b and the bodies around it."""
    while isinstance(b, Sub):
        b.values[t] = b.root.values[t]
        b = b.parent
    return t


def scalar_input(b: Builder, arr: np.ndarray, dtype: str) -> str:
    """A new graph input, a scalar whose value is arr (unknown to the solver)."""
    root = getattr(b, "root", b)
    t = root.name("x")
    root.values[t] = arr
    root.graph["inputs"][t] = {"dtype": dtype, "shape": []}
    return seen(b, t)


def bool_tensor(b: Builder, value: bool, as_input: bool) -> str:
    """A bool scalar: a graph input (of unknown value to the solver) or a constant."""
    if as_input:
        return scalar_input(b, np.array(value), "bool")
    t = b.name("c")
    b.values[t] = np.array(value)
    b.graph["initializers"][t] = {"dtype": "bool", "shape": [], "data": value}
    return t


def declared(b: Builder) -> str | None:
    """A graph input of rank >= 1 (f32): its shape is known to the solver, as declared."""
    root = getattr(b, "root", b)
    pool = [t for t, d in root.graph["inputs"].items() if d["dtype"] == "f32" and d["shape"]]
    return b.rng.choice(pool) if pool else None


def scalar_of_shape(b: Builder, known: bool = False) -> str | None:
    """An i64 scalar computed from a shape: a dim of a tensor (Shape -> Gather) or a Size;
    with `known`, of a graph input (a value the solver can know)."""
    x = declared(b) if known else b.pick(min_rank=1)
    if x is None:
        return None
    if b.rng.random() < 0.15:
        return (b.add("Size", [x]) or [None])[0]
    rank = b.values[x].ndim
    sh = b.add("Shape", [x])
    d = sh and b.add("Gather", [sh[0], b.const(b.rng.randrange(-rank, rank))], {"axis": 0})
    return d and d[0]


def condition(b: Builder, known: bool = False) -> str | None:
    """A bool scalar: a graph input, a constant, or computed from shapes (a comparison of a
    dim with a constant or with another dim, maybe negated). `known`: the solver can know
    its value (with the symbols' values), so no graph input."""
    r = b.rng.random()
    if r < 0.2 and not known:
        return bool_tensor(b, b.rng.random() < 0.5, as_input=True)
    if r < 0.4:
        return bool_tensor(b, b.rng.random() < 0.5, as_input=False)
    d = scalar_of_shape(b, known)
    if d is None:
        return None
    v = int(b.values[d])
    other = scalar_of_shape(b, known) if b.rng.random() < 0.2 else None
    k = other or b.const(b.rng.choice([v, v, 1, v + 1, v - 1]))
    c = b.add(b.rng.choice(COMPARE), [d, k] if b.rng.random() < 0.8 else [k, d])
    if c and b.rng.random() < 0.15:
        c = b.add("Not", [c[0]])
    return c and c[0]


def require(b: Sub, fail: bool = False) -> None:
    """A Squeeze of a tensor around the body at a random axis, not executed: it holds when
    that axis is 1. With `fail`, an axis that is not 1 of a graph input (the body fails if
    it runs, and the solver knows the input's shape)."""
    outer = [t for t, a in b.parent.values.items() if is_tensor(b.parent, t) and a.ndim >= 1
             and a.dtype == np.float32]
    x = declared(b) if fail else outer and b.rng.choice(outer)
    if not x:
        return
    shape = b.values[x].shape
    axes = [i for i, d in enumerate(shape) if d != 1] if fail else range(len(shape))
    if not axes:
        return
    a = b.rng.choice(list(axes))
    b.graph["nodes"].append({"name": f"{'fail_' if fail else ''}req{len(b.graph['nodes'])}",
                             "op": "Squeeze",
                             "inputs": [x, b.const([a])], "outputs": [b.name("r")]})
    b.ops.append("Squeeze")


def fill(b: Sub, steps: int, fail_req: bool = False) -> None:
    """A few random nodes in a body (the generators of fuzz_graphs, nested control flow
    while not too deep) and maybe a requirement on a tensor around it."""
    for _ in range(steps):
        if b.depth < MAX_DEPTH and b.rng.random() < 0.2:
            b.rng.choice(CONTROL)(b, False)
        else:
            GENERATORS[b.rng.choice(BODY_KINDS)](b, False)
    if fail_req:
        require(b, fail=True)
    elif b.rng.random() < 0.3:
        require(b)


def g_if(b: Builder, fail: bool):
    """If on a condition; branches of a few nodes each, reading the tensors around them,
    with outputs of the same or another shape (or a tensor around them as it is)."""
    c = condition(b, known=fail)
    if c is None:
        return None
    taken = bool(b.values[c])
    n_out = b.rng.choice([1, 1, 2])
    branches = {}
    for key, side in (("then_branch", True), ("else_branch", False)):
        s = Sub(b)
        fill(s, b.rng.randint(0, 3), fail_req=fail and side == taken)
        own, around = s.own(), [t for t in b.values if is_tensor(b, t)
                                and b.values[t].dtype == np.float32 and not t.startswith("c")]
        pool = own if own and b.rng.random() < 0.8 else around
        if not pool:
            return None
        outs = [own[-1] if own and k == 0 and b.rng.random() < 0.5 else b.rng.choice(pool)
                for k in range(n_out)]
        branches[key] = s.body(outs)
    return add_control(b, "If", [c], branches, n_out, fail)


def trip_count(b: Builder) -> str:
    """A trip count: a constant, a graph input, or a dim of a tensor (maybe minus 1)."""
    r = b.rng.random()
    if r < 0.4:
        return b.const(b.rng.choice([0, 1, 1, 2, 3, 4, -1]))
    if r < 0.5:
        return scalar_input(b, np.array(b.rng.randint(0, 3), np.int64), "i64")
    d = scalar_of_shape(b)
    if d is not None and b.rng.random() < 0.3:
        d = (b.add(b.rng.choice(["Sub", "Min"]), [d, b.const(1 + b.rng.randrange(2))])
             or [None])[0]
    return d or b.const(2)


CARRY = ["Relu", "Neg", "Add", "Concat", "Transpose", "ReduceSum", "Unsqueeze", "Slice",
         "Mul"]


def update(s: Sub, v: str) -> str | None:
    """The next value of carried v: of the same shape, or of another (growing, shrinking,
    transposed, an axis more or reduced to 1)."""
    op, rank = s.rng.choice(CARRY), s.values[v].ndim
    if op in ("Relu", "Neg"):
        out = s.add(op, [v])
    elif op in ("Add", "Mul"):
        other = s.pick() if s.rng.random() < 0.5 else v  # maybe broadcasting, maybe failing
        out = s.add(op, [v, other])
    elif rank == 0 or op == "Unsqueeze":
        out = s.add("Unsqueeze", [v, s.const([0])]) if rank < 3 else s.add("Relu", [v])
    elif op == "Concat" and s.depth == 1 and s.values[v].size <= 64:
        # (doubling in a loop nested in a loop grows as 2^(m*k): the fuzzer ran out of memory)
        out = s.add("Concat", [v, v], {"axis": s.rng.randrange(rank)})
    elif op == "Concat":
        out = s.add("Relu", [v])
    elif op == "Transpose":
        out = s.add("Transpose", [v])
    elif op == "ReduceSum":
        out = s.add("ReduceSum", [v, s.const([s.rng.randrange(rank)])], {"keepdims": 1})
    else:
        a = s.rng.randrange(rank)
        out = s.add("Slice", [v, s.const([0]), s.const([max(1, s.values[v].shape[a] - 1)]),
                              s.const([a])])
    return out and out[0]


def g_loop(b: Builder, fail: bool):
    """Loop with a trip count (constant, input, computed from a shape, or none), a condition
    (none, constant, input, computed; or the body's Less(i, k)), carried values that keep
    or change their shape, and scan outputs."""
    m = b.const(b.rng.randint(1, 3)) if fail else trip_count(b)
    r = b.rng.random()
    cond = "" if r < 0.35 and not fail else bool_tensor(b, True, False) if r < 0.6 or fail \
        else condition(b) or ""
    if b.rng.random() < 0.15 and not fail:  # a while loop: no trip count
        m, cond = "", cond or bool_tensor(b, True, False)
    carried = [b.pick() or b.new_input(b.random_shape()) for _ in range(b.rng.randint(1, 2))]
    i, ci = b.name("i"), b.name("cin")
    s = Sub(b, {i: np.array(0, np.int64), ci: np.array(True)})
    params = [s.name("v") for _ in carried]
    s.params = [i, ci] + params
    s.values.update({p: b.values[v] for p, v in zip(params, carried)})
    rc = s.rng.random()
    if not m or rc < 0.3:
        co = s.add("Less", [i, s.const(s.rng.randint(1, 4))])
    elif rc < 0.5:
        co = s.add("Constant", [], {"value": {"dtype": "bool", "shape": [], "data": True}})
    else:
        co = s.add("Identity", [ci])
    nexts = []
    for p in params:
        nxt = p
        for _ in range(s.rng.randint(1, 2)):
            nxt = update(s, nxt) or nxt
        nexts.append(nxt)
    fill(s, s.rng.randint(0, 2), fail_req=fail)
    scans = [s.rng.choice(s.own() + nexts + params) for _ in range(s.rng.choice([0, 0, 1, 2]))]
    if scans and s.rng.random() < 0.2:
        scans[0] = s.add("Unsqueeze", [i, s.const([0])])[0]
    if co is None:
        return None
    body = s.body([co[0], *nexts, *scans])
    return add_control(b, "Loop", [m, cond, *carried], {"body": body}, len(carried) + len(scans),
                       fail)


def g_scan(b: Builder, fail: bool):
    """Scan over one or two sequences (scan axes, directions), with states that the body
    accumulates slices into or keeps, and scan outputs stacked along an output axis."""
    x = (declared(b) if fail else b.pick(min_rank=1)) or \
        b.new_input(b.random_shape(b.rng.randint(1, 3)))
    xs, axes = [x], [b.rng.randrange(b.values[x].ndim)]
    length = b.values[x].shape[axes[0]]
    mismatch = fail and b.rng.random() < 0.5  # scan inputs of different lengths
    if b.rng.random() < 0.3 or mismatch:
        shape = b.random_shape(b.rng.randint(0, 2))
        a = b.rng.randint(0, len(shape))
        shape.insert(a, length + mismatch)
        xs.append(b.new_input(shape))
        axes.append(a)
    backward = [b.rng.choice([0, 0, 1]) for _ in xs]
    slices = [np.take(b.values[t], -1 if d else 0, axis=a) for t, a, d in zip(xs, axes, backward)]
    states = [b.new_input(list(slices[0].shape)) if b.rng.random() < 0.5 else
              b.pick() or b.new_input(b.random_shape()) for _ in range(b.rng.randint(0, 2))]
    s = Sub(b)
    ps = [s.name("s") for _ in states]
    px = [s.name("x") for _ in xs]
    s.params = ps + px
    s.values.update({p: b.values[t] for p, t in zip(ps, states)})
    s.values.update(dict(zip(px, slices)))
    nexts = []
    for p in ps:
        nxt = s.add(s.rng.choice(["Add", "Mul"]), [p, px[0]]) if s.rng.random() < 0.6 else \
            s.add(s.rng.choice(["Relu", "Neg"]), [p])
        if nxt is None or s.values[nxt[0]].shape != s.values[p].shape:
            nxt = s.add("Relu", [p])  # a state keeps its shape (Scan.lp)
        nexts.append(nxt[0])
    fill(s, s.rng.randint(0, 2), fail_req=fail and not mismatch)
    elems = [s.rng.choice(s.own() + px) for _ in range(s.rng.randint(0 if states else 1, 2))]
    attrs = {"num_scan_inputs": len(xs), "body": s.body(nexts + elems)}
    if any(axes) or b.rng.random() < 0.3:
        attrs["scan_input_axes"] = [a - b.values[t].ndim if b.rng.random() < 0.3 else a
                                    for t, a in zip(xs, axes)]
    if any(backward):
        attrs["scan_input_directions"] = backward
    if elems and b.rng.random() < 0.5:
        ranks = [s.values[e].ndim + 1 for e in elems]
        attrs["scan_output_axes"] = [b.rng.randrange(-r, r) for r in ranks]
        if b.rng.random() < 0.3:
            attrs["scan_output_directions"] = [b.rng.randint(0, 1) for _ in elems]
    return add_control(b, "Scan", states + xs, attrs, len(states) + len(elems), fail,
                       trial=not mismatch)


CONTROL = [g_if, g_loop, g_scan]


def add_control(b: Builder, op: str, inputs: list, attrs: dict, n_out: int, fail: bool,
                trial: bool = True):
    """b.add of a control-flow node; with `fail`, only if the node runs without its bodies'
    failing requirements: then it fails because of them (the solver can know), not because
    a later iteration met a shape its first did not (a carried value that grows)."""
    if fail and trial:
        t = Builder(b.rng, b.symbolic)
        t.values = dict(b.values)
        if t.add(op, inputs, strip(attrs), n_out) is None:
            return None
    return b.add(op, inputs, attrs, n_out=n_out, allow_failure=fail)


def strip(value):
    """value with the failing requirements of its bodies left out."""
    if isinstance(value, dict):
        value = {k: strip(v) for k, v in value.items()}
        if isinstance(value.get("nodes"), list):
            value["nodes"] = [n for n in value["nodes"]
                              if not str(n.get("name", "")).startswith("fail_req")]
        return value
    return value


def grown(rng, max_nodes: int, step) -> Builder:
    """A random graph of 2 to max_nodes nodes from one input, each added by step(b, last),
    `last` saying that this node may fail in the executor (the last one of a graph in 0.15
    of them)."""
    b = Builder(rng, symbolic=rng.choice([0.0, 0.5, 0.8, 1.0]))
    b.new_input(b.random_shape())
    may_fail = rng.random() < 0.15
    n_nodes = rng.randint(2, max_nodes)
    attempts = 0
    while len(b.graph["nodes"]) < n_nodes and attempts < 50 and not b.failed_op:
        attempts += 1
        step(b, may_fail and len(b.graph["nodes"]) >= n_nodes - 1)
    return b


def build_control(rng, max_nodes: int = 6) -> Builder:
    """A random graph with control flow: about half its steps are If, Loop or Scan (with
    nodes of fuzz_graphs in their bodies and around them); with probability 0.15 the last
    one may fail in the executor (a taken branch or a running body that cannot run, scan
    inputs of different lengths)."""
    from fuzz_control_values import CONTROL_VALUES  # (it builds on this module's Sub)

    def step(b, last):
        if last or rng.random() < 0.5:
            rng.choice(CONTROL_VALUES if rng.random() < 0.2 else CONTROL)(b, last)
        else:
            GENERATORS[rng.choice(list(GENERATORS))](b, False)
    return grown(rng, max_nodes, step)
