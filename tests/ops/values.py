"""Shape computations in the operators' tests: what the rules know of an operator's output
elements, read as the shape Reshape gives a tensor of unknown shape with them as its
target (exporters compute shapes this way: Shape -> Gather -> Add -> Reshape)."""
import re

import numpy as np
import pytest

from shape_logic.graph import dtype_of_array
from shape_logic.solver import solve


# Cast's `to` for the types a Shape is cast to in the cases
CASTS = {"f32": 1, "i32": 6, "i64": 7, "bool": 9}


def i64(*v):
    return np.array(v, dtype=np.int64)


def reshape_target(op, inputs, attrs=None, then=(), opset=18):
    """The shape Reshape(d, v) gives a tensor d of unknown shape, where v is op(inputs) (then
    each op of `then` applied, an op or (op, attrs)): it is what the rules know of op's output
    elements. A string input "[b, s]" is the Shape of a tensor of that shape; "[b, s] as
    i32" that Shape cast to int32 (as tf2onnx computes sizes)."""
    g = {"name": "values", "opset": opset, "inputs": {"d": {"dtype": "f32", "shape": "D"}},
         "initializers": {}, "nodes": []}
    names = []
    for k, a in enumerate(inputs):
        names.append(f"x{k}")
        if isinstance(a, str):
            shape, _, cast = a.partition(" as ")
            g["inputs"][f"t{k}"] = {"dtype": "f32", "shape": shape}
            g["nodes"].append({"name": f"shape{k}", "op": "Shape", "inputs": [f"t{k}"],
                               "outputs": [f"s{k}" if cast else f"x{k}"]})
            if cast:
                g["nodes"].append({"name": f"cast{k}", "op": "Cast", "inputs": [f"s{k}"],
                                   "outputs": [f"x{k}"], "attrs": {"to": CASTS[cast]}})
        else:
            g["initializers"][f"x{k}"] = {"dtype": dtype_of_array(a), "shape": list(a.shape),
                                          "data": a.tolist()}
    node = {"name": "n", "op": op, "inputs": names, "outputs": ["v0"]}
    if attrs:
        node["attrs"] = attrs
    g["nodes"].append(node)
    for k, then_op in enumerate(then):
        then_op, then_attrs = (then_op, {}) if isinstance(then_op, str) else then_op
        g["nodes"].append({"name": f"then{k}", "op": then_op, "inputs": [f"v{k}"],
                           "outputs": [f"v{k + 1}"], "attrs": then_attrs})
    g["nodes"].append({"name": "r", "op": "Reshape", "inputs": ["d", f"v{len(then)}"],
                       "outputs": ["r"]})
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    return sol.shape("r")


def values_test(op: str, cases: dict, opset: int = 18):
    """A test per case (inputs, attrs, ops applied after, the expected target): the rules
    know op's output elements as expected; None: nothing may be known (fresh names only)."""
    @pytest.mark.parametrize("case", cases.values(), ids=cases.keys())
    def test_values(case):
        inputs, attrs, then, expected = case
        got = reshape_target(op, inputs, attrs, then, opset)
        if expected is None:
            assert re.fullmatch(r"\[_\d+(, _\d+)*\]", got), got
        else:
            assert got == expected
    return test_values
