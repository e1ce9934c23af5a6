"""Neg: rules/Neg.lp on data cases, and against onnx's reference on random shapes."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.graph import dtype_of_array
from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case, random_array

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "dtype": ({"inputs": [("i64", "[n, 3]")]},
              {"y0": "[n, 3]", "dtypes": {"y0": "i64"}}),
    "backward from the output": ({"inputs": ["S"],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "output dtype clashes": ({"inputs": ["[2, 3]"],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Neg", {"opset": OPSET, **spec}, expected)


def i64(*v):
    return np.array(v, dtype=np.int64)


def reshape_target(op, inputs, attrs=None, then=(), opset=OPSET):
    """The shape Reshape(d, v) gives a tensor d of unknown shape, where v is op(inputs) (then
    each op of `then` applied): it is what the rules know of op's output elements. A string
    input "[b, s]" is the Shape of a tensor of that shape."""
    g = {"name": "values", "opset": opset, "inputs": {"d": {"dtype": "f32", "shape": "D"}},
         "initializers": {}, "nodes": []}
    names = []
    for k, a in enumerate(inputs):
        names.append(f"x{k}")
        if isinstance(a, str):
            g["inputs"][f"t{k}"] = {"dtype": "f32", "shape": a}
            g["nodes"].append({"name": f"shape{k}", "op": "Shape", "inputs": [f"t{k}"],
                               "outputs": [f"x{k}"]})
        else:
            g["initializers"][f"x{k}"] = {"dtype": dtype_of_array(a), "shape": list(a.shape),
                                          "data": a.tolist()}
    node = {"name": "n", "op": op, "inputs": names, "outputs": ["v0"]}
    if attrs:
        node["attrs"] = attrs
    g["nodes"].append(node)
    for k, then_op in enumerate(then):
        g["nodes"].append({"name": f"then{k}", "op": then_op, "inputs": [f"v{k}"],
                           "outputs": [f"v{k + 1}"]})
    g["nodes"].append({"name": "r", "op": "Reshape", "inputs": ["d", f"v{len(then)}"],
                       "outputs": ["r"]})
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    return sol.shape("r")


VALUE_CASES = {
    "constants": ([i64(-2, -3)], None, (), "[2, 3]"),
    "symbolic, negated twice": (["[b, s]"], None, ("Neg",), "[b, s]"),
    "int32 elements are left alone": ([np.array([-2], np.int32)], None, (), None),
}


@pytest.mark.parametrize("case", VALUE_CASES.values(), ids=VALUE_CASES.keys())
def test_values(case):
    inputs, attrs, then, expected = case
    got = reshape_target("Neg", inputs, attrs, then)
    if expected is None:  # nothing may be known: only fresh names
        assert re.fullmatch(r"\[_\d+(, _\d+)*\]", got), got
    else:
        assert got == expected


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4),
       st.sampled_from(["f32", "f64", "i8", "i32", "i64"]))
def test_matches_reference(shape, dtype):
    x = random_array(shape, dtype)
    check_against_reference("Neg", [x], None, opset=OPSET)
