"""Random valid graphs for bench/fuzz.py, built by execution.

Each generator picks tensors of the graph so far and attributes, and adds one node;
the executor's NumPy kernels run it, which gives every tensor's true shape and
dtype. Inputs are declared with some dims replaced by symbols (the same symbol
for some equal dims, symbols standing for 1 next to broadcasting).
"""
from __future__ import annotations

import contextlib
import random
import signal

import numpy as np

from fuzz_values import empty, is_tensor, value

from shape_logic.kernels import load_kernel

UNARY = ["Relu", "Neg", "Sigmoid", "Identity", "Abs", "Exp"]
BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min"]
REDUCE = ["ReduceSum", "ReduceMean", "ReduceMax"]


# CPU seconds a kernel may take while the Builder runs it: a Loop of Scans ran for minutes
# building a graph (--kind control --seed 111, after graph 1000); past it the node is
# dropped, as a node that fails is
BUILD_SECONDS = 2.0


class TooLong(Exception):
    """Kernels ran past their CPU time (cpu_limit)."""


@contextlib.contextmanager
def cpu_limit(seconds: float):
    """Raise TooLong once the process has spent `seconds` of CPU time in the block (a timer
    signal, seen between Python steps: a Loop's rounds, a kernel's calls)."""
    def too_long(signum, frame):
        raise TooLong

    old = signal.signal(signal.SIGPROF, too_long)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


class Builder:
    """A graph under construction with every tensor's executed value."""

    def __init__(self, rng: random.Random, symbolic: float):
        self.rng = rng
        self.np_rng = np.random.default_rng(rng.randrange(2**32))
        self.symbolic = symbolic
        self.graph = {"opset": 18, "inputs": {}, "initializers": {}, "nodes": []}
        self.values: dict[str, np.ndarray] = {}
        self.symbols: dict[str, int] = {}
        self.ops: list[str] = []
        self.failed_op: str | None = None
        self.optionals: set[str] = set()  # (--kind seq: optionals, which no tensor op takes)

    # ----- tensors
    def name(self, prefix="t") -> str:
        return f"{prefix}{len(self.values)}"

    def new_input(self, shape, dtype="f32") -> str:
        t = self.name("x")
        arr = self.np_rng.standard_normal(shape).astype(np.float32) if dtype == "f32" else \
            self.np_rng.integers(0, 3, size=shape).astype(np.int64)
        self.values[t] = arr
        self.graph["inputs"][t] = {"dtype": dtype, "shape": [self.symbolize(d) for d in shape]}
        return t

    def value_input(self, data) -> str:
        """An i64 graph input holding `data`: sizes the data gives (read as sizes, each a
        name of its own: counts.lp's size_read)."""
        t = self.name("x")
        arr = np.asarray(data, dtype=np.int64)
        self.values[t] = arr
        self.graph["inputs"][t] = {"dtype": "i64", "shape": list(arr.shape)}
        return t

    def symbolize(self, d: int):
        """A dim as declared: the integer, or a symbol whose value is d."""
        if self.rng.random() >= self.symbolic:
            return d
        same = [s for s, v in self.symbols.items() if v == d]
        if same and self.rng.random() < 0.5:
            return self.rng.choice(same)
        s = f"s{len(self.symbols)}"
        self.symbols[s] = d
        return s

    def const(self, data, dtype="i64") -> str:
        t = self.name("c")
        arr = np.asarray(data, dtype=np.int64 if dtype == "i64" else np.float32)
        self.values[t] = arr
        self.graph["initializers"][t] = {"dtype": dtype, "shape": list(arr.shape),
                                         "data": arr.tolist()}
        return t

    def pick(self, min_rank=0, max_rank=9, dtype="f32") -> str | None:
        pool = [t for t, a in self.values.items() if is_tensor(self, t)
                and min_rank <= a.ndim <= max_rank
                and a.dtype == (np.float32 if dtype == "f32" else np.int64)
                and not t.startswith("c")]
        return self.rng.choice(pool) if pool else None

    def random_shape(self, rank=None) -> list[int]:
        rank = self.rng.randint(0, 4) if rank is None else rank
        return [self.rng.choice([1, 1, 2, 3, 4, 5]) for _ in range(rank)]

    # ----- nodes
    def add(self, op: str, inputs: list[str], attrs: dict | None = None, n_out: int = 1,
            allow_failure: bool = False) -> list[str] | None:
        args = [self.values[t] if t else None for t in inputs]
        try:
            kernel = load_kernel(op)(dict(attrs or {}), opset=18, n_outputs=n_out)
            if getattr(kernel, "outer_names", None):  # a body reads tensors around it
                kernel.outer_values = {t: self.values[t] for t in kernel.outer_names}
            with cpu_limit(BUILD_SECONDS):
                outs = kernel(*args)
        except TooLong:
            return None  # (no failing node: one too slow to build with)
        except Exception:
            if not allow_failure:
                return None
            outs = None
        if outs is not None and any(empty(o) for o in outs):
            return None  # symbols stand for dims >= 1: keep every tensor non-empty
        names = [self.name() + (f"_{k}" if k else "") for k in range(n_out)]
        node = {"name": f"n{len(self.graph['nodes'])}", "op": op, "inputs": inputs,
                "outputs": names}
        if attrs:
            node["attrs"] = attrs
        self.graph["nodes"].append(node)
        self.ops.append(op)
        if outs is None:
            self.failed_op = op
            return names
        for t, o in zip(names, outs):
            self.values[t] = value(o)
        return names


# ----- one generator per kind of node: picks inputs and attributes, adds the node

def g_unary(b: Builder, fail: bool):
    x = b.pick()
    return x and b.add(b.rng.choice(UNARY), [x])


def g_softmax(b, fail):
    x = b.pick(min_rank=1)
    return x and b.add(b.rng.choice(["Softmax", "LogSoftmax"]), [x],
                       {"axis": b.rng.randint(-b.values[x].ndim, b.values[x].ndim - 1)})


def g_binary(b, fail):
    x = b.pick()
    if x is None:
        return None
    shape = list(b.values[x].shape)
    r = b.rng.random()
    if r < 0.3:  # broadcasting partner: trailing axes, some set to 1
        shape = [1 if b.rng.random() < 0.4 else d for d in shape[b.rng.randint(0, len(shape)):]]
    elif r < 0.45:  # a partner of higher rank
        shape = b.random_shape(b.rng.randint(0, 2)) + shape
    elif r < 0.55 or fail:  # possibly incompatible
        shape = b.random_shape(len(shape))
    other = b.pick() if b.rng.random() < 0.3 else b.new_input(shape)
    ins = [x, other] if b.rng.random() < 0.5 else [other, x]
    return b.add(b.rng.choice(BINARY), ins, allow_failure=fail)


def g_where(b, fail):
    x, y = b.pick(), b.pick()
    if x is None or y is None:
        return None
    c = b.add("Less", [x, y], allow_failure=False)
    return c and b.add("Where", [c[0], x, y])


def g_matmul(b, fail):
    a = b.pick(min_rank=1)
    if a is None:
        return None
    sa = b.values[a].shape
    k = sa[-1] if not fail else b.rng.choice([1, 2, 3])
    rank = b.rng.randint(1, 3)
    shape = ([k] if rank == 1 else [k, b.rng.randint(1, 4)])
    if rank == 3:
        shape = [b.rng.choice([1, sa[0] if len(sa) > 2 else 1])] + shape
    return b.add("MatMul", [a, b.new_input(shape)], allow_failure=fail)


def g_transpose(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    perm = list(range(b.values[x].ndim))
    b.rng.shuffle(perm)
    return b.add("Transpose", [x], {"perm": perm} if b.rng.random() < 0.8 else None)


def g_reshape(b, fail):
    x = b.pick()
    if x is None:
        return None
    shape = b.values[x].shape
    n = int(np.prod(shape))
    target = _factor(b.rng, n)
    if target and b.rng.random() < 0.5:
        target[b.rng.randrange(len(target))] = -1
    if b.rng.random() < 0.3 and len(shape) >= 1 and target:  # copy markers
        for i in range(min(len(shape), len(target))):
            if target[i] == shape[i] and b.rng.random() < 0.5:
                target[i] = 0
    if fail:
        target = target + [b.rng.choice([2, 3])]
    if b.rng.random() < 0.25 and len(shape) >= 2:  # target from Shape: flatten the tail
        s = b.add("Shape", [x], {"end": 1} if b.rng.random() < 0.5 else {"start": 0, "end": 1})
        minus = b.const([-1])
        cat = b.add("Concat", [s[0], minus], {"axis": 0})
        return b.add("Reshape", [x, cat[0]])
    return b.add("Reshape", [x, b.const(target)], allow_failure=fail)


def _factor(rng, n: int) -> list[int]:
    out = []
    while n > 1 and len(out) < 3:
        divisors = [d for d in range(2, n + 1) if n % d == 0]
        d = rng.choice(divisors)
        out.append(d)
        n //= d
    if n > 1:
        out.append(n)
    if rng.random() < 0.3:
        out.insert(rng.randint(0, len(out)), 1)
    return out


def g_flatten(b, fail):
    x = b.pick()
    return x and b.add("Flatten", [x], {"axis": b.rng.randint(-b.values[x].ndim,
                                                               b.values[x].ndim)})


def g_concat(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    shape = list(b.values[x].shape)
    axis = b.rng.randrange(len(shape))
    other = list(shape)
    other[axis] = b.rng.randint(1, 4)
    if fail:
        other[b.rng.randrange(len(shape))] += 1
    return b.add("Concat", [x, b.new_input(other)],
                 {"axis": axis - len(shape) if b.rng.random() < 0.3 else axis},
                 allow_failure=fail)


def g_unsqueeze(b, fail):
    x = b.pick(max_rank=3)
    if x is None:
        return None
    r = b.values[x].ndim + 1
    return b.add("Unsqueeze", [x, b.const([b.rng.randint(-r, r - 1)])])


def g_squeeze(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    ones = [i for i, d in enumerate(b.values[x].shape) if d == 1]
    if ones and b.rng.random() < 0.7:
        return b.add("Squeeze", [x, b.const([b.rng.choice(ones)])])
    return b.add("Squeeze", [x])


def g_reduce(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    r = b.values[x].ndim
    axes = sorted(set(b.rng.randrange(r) for _ in range(b.rng.randint(1, r))))
    ins = [x, b.const(axes)] if b.rng.random() < 0.8 else [x]
    return b.add(b.rng.choice(REDUCE), ins, {"keepdims": b.rng.randint(0, 1)})


def g_expand(b, fail):
    x = b.pick()
    if x is None:
        return None
    shape = [d if d != 1 or b.rng.random() < 0.5 else b.rng.randint(1, 3)
             for d in b.values[x].shape]
    shape = b.random_shape(b.rng.randint(0, 1)) + shape
    if b.rng.random() < 0.3:
        shape = [1 if b.rng.random() < 0.5 else d for d in shape]  # 1 keeps the input's dim
    return b.add("Expand", [x, b.const(shape)], allow_failure=fail)


def g_slice(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    shape = b.values[x].shape
    axis = b.rng.randrange(len(shape))
    d = shape[axis]
    start = b.rng.randint(-d, d - 1)
    end = b.rng.choice([d, b.rng.randint(start + 1 if start >= 0 else 0, d), 2**62, -1])
    step = b.rng.choice([1, 1, 2])
    return b.add("Slice", [x, b.const([start]), b.const([end]), b.const([axis]),
                           b.const([step])])


def g_tile(b, fail):
    x = b.pick(min_rank=1)
    return x and b.add("Tile", [x, b.const([b.rng.randint(1, 3) for _ in b.values[x].shape])])


def g_gather(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    axis = b.rng.randrange(b.values[x].ndim)
    d = b.values[x].shape[axis]
    idx = [b.rng.randint(-d, d - 1) for _ in range(b.rng.randint(1, 3))]
    return b.add("Gather", [x, b.const(idx if b.rng.random() < 0.7 else idx[0])],
                 {"axis": axis})


def g_split(b, fail):
    x = b.pick(min_rank=1)
    if x is None:
        return None
    axis = b.rng.randrange(b.values[x].ndim)
    d = b.values[x].shape[axis]
    if d < 2:
        return None
    cut = b.rng.randint(1, d - 1)
    return b.add("Split", [x, b.const([cut, d - cut])], {"axis": axis}, n_out=2)


def g_conv(b, fail):
    n, c = b.rng.randint(1, 2), b.rng.randint(1, 3)
    spatial = [b.rng.randint(3, 7) for _ in range(b.rng.randint(1, 2))]
    k = [b.rng.randint(1, 3) for _ in spatial]
    x = b.new_input([n, c] + spatial)
    attrs = {"strides": [b.rng.randint(1, 2) for _ in spatial]}
    if b.rng.random() < 0.5:
        attrs["pads"] = [b.rng.randint(0, 1) for _ in range(2 * len(spatial))]
    if b.rng.random() < 0.3:
        attrs["dilations"] = [b.rng.randint(1, 2) for _ in spatial]
    op = b.rng.choice(["Conv", "MaxPool", "AveragePool"])
    if op == "Conv":
        w = b.new_input([b.rng.randint(1, 3), c + (1 if fail else 0)] + k)
        return b.add("Conv", [x, w], attrs, allow_failure=fail)
    attrs["kernel_shape"] = k
    if op == "AveragePool":
        attrs.pop("dilations", None)
    return b.add(op, [x], attrs, allow_failure=fail)


SHAPE_ARITH = ["Add", "Sub", "Mul", "Div", "Mod", "Max", "Min"]


def g_shape_arith(b, fail):
    """A shape computation as exporters write them: a dim of x (Shape -> Gather), some
    integer arithmetic with small constants (Div truncates, Mod is floored: where the
    peers go wrong), then used as a size - ConstantOfShape, Range, a Reshape target with
    -1, or a Slice end."""
    x = b.pick(min_rank=1)
    if x is None:
        return None
    rank = b.values[x].ndim
    shape = b.add("Shape", [x])
    v = b.add("Gather", [shape[0], b.const(b.rng.randrange(-rank, rank))], {"axis": 0})
    for _ in range(b.rng.randint(0, 3)):
        if v is None:
            return None
        op = b.rng.choice(SHAPE_ARITH)
        c = b.const(b.rng.choice([1, 2, 3, -1, -2]) if op in ("Add", "Sub", "Mul")
                    else b.rng.choice([1, 2, 3]))
        v = b.add(op, [v[0], c] if b.rng.random() < 0.8 else [c, v[0]])
    if v is None or not 1 <= int(b.values[v[0]]) <= 64:
        return None
    use = b.rng.choice(["ConstantOfShape", "Range", "Reshape", "Slice"])
    if use == "Range":
        return b.add("Range", [b.const(0), v[0], b.const(b.rng.choice([1, 2]))])
    vec = b.add("Unsqueeze", [v[0], b.const([0])])
    if vec is None:
        return None
    if use == "ConstantOfShape":
        return b.add("ConstantOfShape", [vec[0]])  # zeros, f32
    if use == "Reshape":
        target = b.add("Concat", [vec[0], b.const([-1])], {"axis": 0})
        return target and b.add("Reshape", [x, target[0]], allow_failure=fail)
    return b.add("Slice", [x, b.const([0]), vec[0], b.const([b.rng.randrange(rank)])])


GENERATORS = {g.__name__[2:]: g for g in (
    g_unary, g_softmax, g_binary, g_where, g_matmul, g_transpose, g_reshape, g_flatten,
    g_concat, g_unsqueeze, g_squeeze, g_reduce, g_expand, g_slice, g_tile, g_gather, g_split,
    g_conv, g_shape_arith)}


def build(rng: random.Random, max_nodes: int = 8) -> Builder:
    """A random graph; with probability 0.15 its last node is one whose kernel may fail."""
    b = Builder(rng, symbolic=rng.choice([0.0, 0.5, 0.8, 1.0]))
    b.new_input(b.random_shape())
    may_fail = rng.random() < 0.15
    n_nodes = rng.randint(1, max_nodes)
    kinds = list(GENERATORS)
    attempts = 0
    while len(b.graph["nodes"]) < n_nodes and attempts < 50 and not b.failed_op:
        attempts += 1
        last = may_fail and len(b.graph["nodes"]) >= n_nodes - 1
        GENERATORS[rng.choice(kinds)](b, last)
    return b
