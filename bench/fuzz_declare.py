"""The outputs of a fuzzed graph written as an ONNX model and declared the ways exporters
declare them, for bench/fuzz_narrowing.py (`fuzz.py --narrowing`): the graph's true
symbolic shapes (its JSON solve's), traced sizes, names of their own, names shared across
outputs, and wrong ones (WAYS), with which of them narrowing must keep."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import numpy as np

from shape_logic.graph import dtype_of_array
from shape_logic.shapes import has_fresh_name
from shape_logic.symbolic.expr import Expr

# how an output is declared: the true symbolic shape; the traced sizes; a name of its own
# per dim the graph does not give as an integer; names shared across outputs by axis (the
# legacy exporter's merged names: some equal at run time, some not); a rank one off; one
# dim off by an integer; one dim a wrong expression of the inputs (2*h for h, another input
# symbol, h + w); true for some axes and wrong for others; some dims left unknown
WAYS = ("true", "traced", "fresh", "shared", "rank", "offby", "wrongexpr", "mixed", "unknown")

@dataclass
class Declared:
    """The model as the solver sees it: a JSON graph and its outputs' declarations."""
    graph: dict
    outputs: dict  # output -> declared dims (ints, dim_param texts, None: unknown)
    ways: dict = field(default_factory=dict)  # output -> how it was declared (WAYS)
    must_keep: set = field(default_factory=set)  # outputs whose declaration must be kept

    def model(self, values: dict):
        return to_model(self.graph, {t: (dtype_of_array(values[t]), dims)
                                     for t, dims in self.outputs.items()})

    def record(self) -> dict:
        return {"graph": self.graph, "outputs": self.outputs, "ways": self.ways,
                "must_keep": sorted(self.must_keep)}


def to_model(graph: dict, outputs: dict):
    """The ONNX ModelProto of a JSON graph of plain nodes (no bodies) with these outputs:
    name -> (dtype, dims as ints, dim_param texts and None)."""
    from onnx import TensorProto, helper, numpy_helper

    from shape_logic.graph import NUMPY_DTYPES
    from shape_logic.onnx_import import DTYPE_TO_ONNX

    def info(name, dtype, dims):
        vi = helper.make_tensor_value_info(name, DTYPE_TO_ONNX[dtype], None)
        shape = vi.type.tensor_type.shape  # (set, even empty: a rank of 0)
        shape.SetInParent()
        for d in dims:
            dim = shape.dim.add()
            if isinstance(d, int):
                dim.dim_value = d
            elif d is not None:
                dim.dim_param = d
        return vi

    inits = [numpy_helper.from_array(np.array(i["data"], NUMPY_DTYPES[i["dtype"]]).reshape(
        i["shape"]), t) for t, i in graph["initializers"].items()]
    nodes = []
    for n in graph["nodes"]:
        attrs = {}
        for k, v in (n.get("attrs") or {}).items():  # (an empty list has no type to infer)
            attrs[k] = helper.make_attribute(k, v, attr_type=TensorProto.INTS if v == []
                                             else None)
        node = helper.make_node(n["op"], n["inputs"], n["outputs"], name=n["name"])
        node.attribute.extend(attrs.values())
        nodes.append(node)
    g = helper.make_graph(nodes, "fuzz", [info(t, i["dtype"], i["shape"]) for t, i in
                                          graph["inputs"].items()],
                          [info(t, dtype, dims) for t, (dtype, dims) in outputs.items()],
                          initializer=inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", graph.get("opset",
                                                                                   18))])
    model.ir_version = 8
    return model


def declare(b, sol, rng: random.Random) -> Declared:
    """b's graph with some of its tensors as outputs, declared the WAYS exporters do;
    `sol`: the JSON graph's solve, whose shapes are the true symbolic ones."""
    made = [o for n in b.graph["nodes"] for o in n["outputs"]
            if o and isinstance(b.values.get(o), np.ndarray) and sol.dims(o) is not None]
    d = Declared(json.loads(json.dumps(b.graph)), {})
    if not made:
        return d
    picked = set(rng.sample(made, rng.randint(1, min(4, len(made)))))
    if rng.random() < 0.7:
        picked.add(made[-1])
    shared_way = rng.random() < 0.5  # (then several outputs share names)
    for t in [o for o in made if o in picked]:  # (in the graph's order)
        way = "shared" if shared_way and rng.random() < 0.6 else rng.choice(WAYS)
        dims, keep = declared_dims(way, t, b, sol, rng)
        d.outputs[t], d.ways[t] = dims, way
        # (a name is a size of at least 1: for a size the graph leaves open (the data may
        # make it 0), one that nodes read meets their arithmetic, and is set aside)
        read = any(t in n["inputs"] for n in b.graph["nodes"])
        if keep and not (read and any(has_fresh_name(e) for e in sol.dims(t))):
            d.must_keep.add(t)
    return d


def declared_dims(way: str, t: str, b, sol, rng) -> tuple[list, bool]:
    """(t's declared dims, whether the declaration must be kept)."""
    true = list(sol.dims(t))
    traced = [int(v) for v in b.values[t].shape]
    own = _OwnNames(t)
    exact = [_text(e, own) for e in true]
    if way == "true":
        return exact, True
    if way == "traced":
        return traced, all(e.is_int for e in true)
    if way == "fresh":  # names for what is no integer; sure only where a size is >= 1
        dims = [e.value if e.is_int else f"{t}_d{i}" for i, e in enumerate(true)]
        return dims, all(e.is_int or _at_least_one(e, b) for e in true)
    if way == "shared":  # the legacy exporter: one name per axis, whatever the output
        return [e.value if e.is_int else f"S_{i}" for i, e in enumerate(true)], False
    if way == "unknown":
        return [None if rng.random() < 0.5 else x for x in exact], True
    if way == "rank":
        if true and rng.random() < 0.5:
            return exact[:-1] if rng.random() < 0.5 else exact[1:], False
        return exact + [rng.choice([1, traced[-1] if traced else 2, f"{t}_extra"])], False
    if not true:
        return exact, True
    i = rng.randrange(len(true))
    wrong = list(exact)
    if way == "offby":
        # (a dim no size can take is a malformed model, not advice: at least 0 where traced)
        k = rng.choice([x for x in (-2, -1, 1, 2, 3) if traced[i] + x >= 0])
        wrong[i] = _text(true[i] + Expr.const(k), own)
    elif way == "wrongexpr":
        wrong[i] = _wrong_expr(true[i], b, own, rng)
    else:  # mixed: some axes wrong, others as the graph gives them
        for j in range(len(true)):
            if j == i or rng.random() < 0.3:
                wrong[j] = rng.choice([f"S_{j}", traced[j], _wrong_expr(true[j], b, own, rng),
                                       _text(true[j] + Expr.const(1), own)])
    return wrong, False


def _wrong_expr(e: Expr, b, own: dict, rng) -> str | int:
    """An expression of the input symbols that differs from e: twice it, another input
    symbol (of the same value at the built size where there is one), or it plus one."""
    others = [s for s in b.symbols if Expr.sym(s) != e]
    same = [s for s in others if b.symbols[s] == _value(e, b)]
    r = rng.random()
    if same and r < 0.4:
        return rng.choice(same)
    if others and r < 0.6:
        return rng.choice(others)
    if others and r < 0.8:
        return _text(e + Expr.sym(rng.choice(others)), own)
    return _text(Expr.const(2) * e, own)


def _value(e: Expr, b) -> int | None:
    v = e.subs({s: Expr.const(x) for s, x in b.symbols.items()})
    return v.value if v.is_int else None


def _at_least_one(e: Expr, b) -> bool:
    """Whether dim e is sure to be a size of at least 1: an input symbol, or a fresh name
    (a name of its own for it then requires nothing of the inputs)."""
    a = e.single_atom()
    return e.constant_term() == 0 and a is not None and a.kind == "sym" and (
        a.args[0] in b.symbols or a.args[0].startswith("_"))


class _OwnNames(dict):
    """The fresh names of output t's shape -> names of t's own, made as they are asked
    for (a dim_param cannot say `_1`: it would be read as a name of its own anyway)."""

    def __init__(self, t: str):
        super().__init__()
        self.t = t

    def __missing__(self, s):
        self[s] = Expr.sym(f"{self.t}_f{s.lstrip('_')}")
        return self[s]


def _text(e: Expr, own: dict) -> int | str:
    """A dim as a declaration writes it: an integer, or its text with fresh names renamed."""
    if e.is_int:
        return e.value
    if has_fresh_name(e):
        e = e.subs({s: own[s] for s in e.symbols() if s.startswith("_")})
    return str(e)
