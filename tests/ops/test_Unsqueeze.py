"""Unsqueeze: rules/Unsqueeze.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "axis 0": ({"inputs": ["[b, s]", i64(0)]}, {"y0": "[1, b, s]"}),
    "last axis": ({"inputs": ["[b, s]", i64(2)]}, {"y0": "[b, s, 1]"}),
    "negative axes count on the output": ({"inputs": ["[b, s]", i64(-1, 1)]},
                                          {"y0": "[b, 1, s, 1]"}),
    "unsorted axes": ({"inputs": ["[b, s]", i64(3, 0)]}, {"y0": "[1, b, s, 1]"}),
    "scalar to vector": ({"inputs": [("i64", "[]"), i64(0)]}, {"y0": "[1]"}),
    "axes attribute (opset 11)": ({"inputs": ["[b, s]"], "attrs": {"axes": [0, 3]},
                                   "opset": 11}, {"y0": "[1, b, s, 1]"}),
    "axes attribute (opset 1)": ({"inputs": ["[b, s]"], "attrs": {"axes": [1]}, "opset": 1},
                                 {"y0": "[b, 1, s]"}),
    "runtime axes: the rank": ({"inputs": ["[b, s]", ("i64", "[2]")]},
                               {"y0": "[_1, _2, _3, _4]"}),
    "backward": ({"inputs": ["X", i64(1)], "outputs": {"y0": {"shape": "[b, 1, s]"}}},
                 {"x0": "[b, s]"}),
    "dtype kept": ({"inputs": [("bool", "[3]"), i64(0)]},
                   {"y0": "[1, 3]", "dtypes": {"y0": "bool"}}),
    "axis out of range": ({"inputs": ["[b, s]", i64(3)]}, "error"),
    "negative axis out of range": ({"inputs": ["[b, s]", i64(-4)]}, "error"),
    "repeated axis": ({"inputs": ["[b, s]", i64(1, 1)]}, "error"),
    "repeated axis, negative": ({"inputs": ["[b, s]", i64(3, -1)]}, "error"),
    "no axes (opset 13)": ({"inputs": ["[b, s]"]}, "error"),
    "no axes (opset 11)": ({"inputs": ["[b, s]"], "opset": 11}, "error"),
    "negative axis before opset 11": ({"inputs": ["[b, s]"], "attrs": {"axes": [-1]},
                                       "opset": 10}, "error"),
    "inserted axis is not 1": ({"inputs": ["[b, s]", i64(0)],
                                "outputs": {"y0": {"shape": "[2, b, s]"}}}, "error"),
}


test_case = case_test("Unsqueeze", CASES, OPSET)


def test_values_kept():
    """Shape -> Gather -> Unsqueeze -> Reshape: a scalar dim becomes a 1-element vector."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s]"}, "d": {"shape": "D"}},
         "initializers": {"ax": {"dtype": "i64", "shape": [1], "data": [0]},
                          "one": {"dtype": "i64", "shape": [], "data": 1}},
         "nodes": [
             {"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
             {"op": "Gather", "inputs": ["sh", "one"], "outputs": ["g"]},
             {"op": "Unsqueeze", "inputs": ["g", "ax"], "outputs": ["u"]},
             {"op": "Reshape", "inputs": ["d", "u"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("u") == "[1]" and sol.shape("r") == "[s]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), max_size=3), st.data(), st.booleans())
def test_matches_reference(shape, data, old):
    # axes drawn from -(r+L)-1..r+L, possibly repeated: the reference rejects the bad ones
    r = len(shape)
    n = data.draw(st.integers(1, 3))
    axes = data.draw(st.lists(st.integers(-(r + n) - 1, r + n), min_size=n, max_size=n))
    x = random_array(shape)
    if old:  # opset 11: an attribute
        # The reference's Unsqueeze-1/11 inserts the axes one after the other in the given
        # order, which is the spec's semantics (axes of the output, in any order, distinct)
        # only for ascending non-negative axes: those are drawn here, the rest are cases.
        axes = sorted({a for a in axes if a >= 0}) or [0]
        check_against_reference("Unsqueeze", [x], {"axes": axes}, opset=11)
    else:
        check_against_reference("Unsqueeze", [x, np.array(axes, np.int64)], None, opset=OPSET,
                                const=[1])
