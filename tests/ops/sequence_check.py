"""Sequence operators checked three ways on one graph: elements e0, e1, .. joined by
SequenceConstruct into `s`, then the operator on `s` (and its other inputs) into `y`.

- the rules (solved with every element dim a symbol of its own, or as integers): what
  they infer of `y` must hold under the symbols' values;
- our kernels (shape_logic.executor, every tensor checked against the inferred shapes);
- onnx's reference evaluator, on the same graph as an ONNX model.
"""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from shape_logic.executor import Program
from shape_logic.graph import dtype_of_array
from shape_logic.solver import solve
from shape_logic.symbolic.expr import Expr


def sequence_graph(op: str, shapes: list, extras: list, attrs: dict | None,
                   symbolic: bool) -> tuple[dict, dict]:
    """(graph, the symbols' values): elements of `shapes` (each dim the symbol `d<k>_<i>`
    when `symbolic`), `extras` (arrays) as initializers after `s`."""
    values, inputs = {}, {}
    for k, shape in enumerate(shapes):
        dims = []
        for i, d in enumerate(shape):
            if symbolic and d > 0:
                values[f"d{k}_{i}"] = d
                dims.append(f"d{k}_{i}")
            else:
                dims.append(d)
        inputs[f"e{k}"] = {"dtype": "f32", "shape": dims}
    inits = {f"x{k}": {"dtype": dtype_of_array(a), "shape": list(a.shape), "data": a.tolist()}
             for k, a in enumerate(extras, 1) if a is not None}
    nodes = [{"name": "construct", "op": "SequenceConstruct", "inputs": list(inputs),
              "outputs": ["s"]},
             {"name": "n", "op": op, "outputs": ["y"], "attrs": dict(attrs or {}),
              "inputs": ["s"] + [f"x{k}" if a is not None else "" for k, a in
                                 enumerate(extras, 1)]}]
    return {"opset": 18, "inputs": inputs, "initializers": inits, "nodes": nodes,
            "outputs": {"y": {}}}, values


def reference(op: str, feeds: dict, extras: list, attrs: dict | None):
    """onnx's reference evaluator's `y` on the same graph."""
    ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape))
           for n, a in feeds.items()]
    inits = [numpy_helper.from_array(a, f"x{k}") for k, a in enumerate(extras, 1)
             if a is not None]
    nodes = [helper.make_node("SequenceConstruct", list(feeds), ["s"]),
             helper.make_node(op, ["s"] + [f"x{k}" if a is not None else ""
                                           for k, a in enumerate(extras, 1)], ["y"],
                              **(attrs or {}))]
    out = helper.make_empty_tensor_value_info("y")  # (no type: the reference needs none)
    model = helper.make_model(helper.make_graph(nodes, "g", ins, [out], initializer=inits),
                              opset_imports=[helper.make_opsetid("", 18)])
    return ReferenceEvaluator(model).run(None, feeds)[0]


def check(op: str, shapes: list, extras: list = (), attrs: dict | None = None,
          symbolic: bool = True, rng=None):
    """The three agree on `y` (see the module's docstring); returns our `y`."""
    rng = rng or np.random.default_rng(0)
    extras = list(extras)
    feeds = {f"e{k}": rng.standard_normal(shape).astype(np.float32)
             for k, shape in enumerate(shapes)}
    graph, values = sequence_graph(op, shapes, extras, attrs, symbolic)
    ours = Program(graph).run(feeds)["y"]
    want = reference(op, feeds, extras, attrs)
    if isinstance(want, list):
        assert isinstance(ours, list) and len(ours) == len(want)
        assert all(np.array_equal(a, b) for a, b in zip(ours, want))
    else:
        assert np.array_equal(ours, want)
    sol = solve(graph)
    assert sol.status == "ok", sol.diagnostics
    holds(sol, "y", ours, values)
    return ours


def holds(sol, t: str, value, values: dict) -> None:
    """What the solve says of t holds of `value` under the symbols' values: its length,
    and each dim that is no fresh name and no `?` (a sequence's, for every element)."""
    env = {s: Expr.const(v) for s, v in values.items()}
    arrays = value if isinstance(value, list) else [value]
    seq = sol.sequence(t)
    assert (seq is not None) == isinstance(value, list), (t, seq)
    if seq is not None and seq["length"] is not None:
        length = Expr.const(seq["length"]) if isinstance(seq["length"], int) else \
            _parsed(seq["length"]).subs(env)
        assert not length.symbols() and length.value == len(arrays), (t, seq, len(arrays))
    dims = sol.dims(t)
    if dims is None:
        return
    for a in arrays:
        assert len(dims) == a.ndim, (t, sol.shape(t), a.shape)
        for d, n in zip(dims, a.shape):
            e = d.subs(env)
            if not e.symbols():
                assert e.value == n, (t, sol.shape(t), a.shape)


def _parsed(text: str) -> Expr:
    from shape_logic.symbolic import parse_dim

    return parse_dim(text)
