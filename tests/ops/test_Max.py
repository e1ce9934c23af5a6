"""Max: rules/Max.lp on data cases, and against onnx's reference on random shapes."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.graph import dtype_of_array
from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case, random_array

OPSET = 18
CASES = {
    "one input": ({"inputs": ["[b, s]"]}, {"y0": "[b, s]"}),
    "two inputs broadcast": ({"inputs": ["[b, 1, 768]", "[s, 1]"]},
                             {"y0": "[b, s, 768]"}),
    "three inputs broadcast": ({"inputs": ["[b, 1, 1]", "[s, 1]", "[768]"]},
                               {"y0": "[b, s, 768]"}),
    "symbols that may be 1 stay apart": ({"inputs": ["[n]", "[m]", "[k]"]},
                                         {"y0": "[max(k, max(m, n))]"}),
    "a literal decides": ({"inputs": ["[n]", "[3]", "[1]"]},
                          {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": ["[n, k]", "[k]", "[1]"],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": ["[n]", "[m]", "[p]"],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]", "x2": "[1]"}),
    "dtype": ({"inputs": [("i32", "[n]"), ("i32", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "i32"}}),
    "dtype mix": ({"inputs": [("i32", "[3]"), ("i32", "[3]"), ("i64", "[3]")]}, "error"),
    "output dtype clashes": ({"inputs": [("i32", "[3]")], "outputs": {"y0": {"dtype": "i64"}}},
                             "error"),
    "no inputs": ({"inputs": []}, "error"),
    "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
    "the third input clashes": ({"inputs": ["[2, 3]", "[3]", "[2]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("Max", *CASES[name])


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
    "constants": ([i64(2, 7), i64(5, 3)], None, (), "[5, 7]"),
    "a scalar applies to every element": ([i64(2, 7), np.array(4, np.int64)], None, (), "[4, 7]"),
    "symbolic": (["[b, 3]", i64(1, 5)], None, (), "[b, 5]"),
    "one input": ([i64(2, 3)], None, (), "[2, 3]"),
    "uint8 elements": ([np.array([2, 9], np.uint8), np.array([5, 3], np.uint8)], None, (),
                       "[5, 9]"),
    "three inputs: unknown": ([i64(2, 7), i64(5, 3), i64(1, 1)], None, (), None),
}


@pytest.mark.parametrize("case", VALUE_CASES.values(), ids=VALUE_CASES.keys())
def test_values(case):
    inputs, attrs, then, expected = case
    got = reshape_target("Max", inputs, attrs, then)
    if expected is None:  # nothing may be known: only fresh names
        assert re.fullmatch(r"\[_\d+(, _\d+)*\]", got), got
    else:
        assert got == expected


@st.composite
def operand_shapes(draw):
    """1 to 4 shapes that broadcast, except where an axis was drawn freely (it may clash).
    No 0-size axes: the symbolic comparison assumes every symbol is >= 1."""
    rank = draw(st.integers(0, 4))
    out = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    shapes = []
    for _ in range(draw(st.integers(1, 4))):
        r = draw(st.integers(0, rank))
        shapes.append([draw(st.sampled_from([d, d, 1, draw(st.integers(1, 5))]))
                       for d in out[rank - r:]])
    return shapes


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64", "u8"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Max", arrays, opset=OPSET)
