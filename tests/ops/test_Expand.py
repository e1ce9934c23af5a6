"""Expand: rules/Expand.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "new leading axes": ({"inputs": ["[3, 1]", i64(2, 1, 4)]}, {"y0": "[2, 3, 4]"}),
    "1 in the target keeps the input's axis": ({"inputs": ["[b, s]", i64(1, 1)]},
                                               {"y0": "[b, s]"}),
    "input axis of 1 takes the target's": ({"inputs": ["[b, 1]", i64(1, 5)]}, {"y0": "[b, 5]"}),
    "shorter target": ({"inputs": ["[b, s, 4]", i64(4)]}, {"y0": "[b, s, 4]"}),
    "a symbol against a size": ({"inputs": ["[s]", i64(2, 5)]}, {"x0": "[s]", "y0": "[2, 5]"}),
    "zero-size target": ({"inputs": ["[3, 1]", i64(3, 0)]}, {"y0": "[3, 0]"}),
    "scalar input": ({"inputs": ["[]", i64(2, 3)]}, {"y0": "[2, 3]"}),
    "a graph input's target: names of their own": ({"inputs": ["[3, 1]", ("i64", "[3]")]},
                                                   {"y0": "[_c1, 3, _c2]"}),
    "backward: the input from the output": ({"inputs": ["[b, 1]", i64(1, 5)],
                                             "outputs": {"y0": {"shape": "[7, 5]"}}},
                                            {"x0": "[7, 1]", "bindings": {"b": 7}}),
    "backward: a runtime target may be 1": ({"inputs": ["[b, 1]", ("i64", "[2]")],
                                             "outputs": {"y0": {"shape": "[7, 5]"}}},
                                            {"x0": "[b, 1]"}),
    "dtype kept": ({"inputs": [("i64", "[1]"), i64(3)]}, {"y0": "[3]", "dtypes": {"y0": "i64"}}),
    "incompatible axes": ({"inputs": ["[3, 2]", i64(3, 4)]}, "error"),
    "zero against a size": ({"inputs": ["[3, 1]", i64(2, 0, 4)]}, "error"),
    "negative size": ({"inputs": ["[3, 1]", i64(-1, 4)]}, "error"),
    "shape of rank 2": ({"inputs": ["[3]", np.array([[3]], np.int64)]}, "error"),
}


test_case = case_test("Expand", CASES, OPSET)


def test_target_from_a_shape_computation():
    """Shape -> Expand: expanding [1, 1, d] to the shape of [b, s, d]."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, 64]"}, "p": {"shape": "[1, 1, 64]"}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Expand", "inputs": ["p", "sh"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, s, 64]"


def test_values_of_a_repeated_element():
    """Expand(7, [3]) -> Reshape: a single element repeated is a known vector."""
    g = {"opset": OPSET, "inputs": {"d": {"shape": "D"}},
         "initializers": {"v": {"dtype": "i64", "shape": [], "data": 7},
                          "n": {"dtype": "i64", "shape": [1], "data": [3]}},
         "nodes": [{"op": "Expand", "inputs": ["v", "n"], "outputs": ["e"]},
                   {"op": "Reshape", "inputs": ["d", "e"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("r") == "[7, 7, 7]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([1, 1, 2, 3]), max_size=3),
       st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4))
def test_matches_reference(shape, target):
    # shapes that may not broadcast: the reference raises, so must we
    check_against_reference("Expand", [random_array(shape), i64(*target).reshape(-1)],
                            opset=OPSET, const=[1])
