"""ConstantOfShape: rules/ConstantOfShape.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st
from onnx import numpy_helper

from shape_logic.solver import solve
from shape_logic.testing import infer, reference_outputs
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "constant shape": ({"inputs": [i64(2, 3)]}, {"y0": "[2, 3]", "dtypes": {"y0": "f32"}}),
    "dtype of the value": ({"inputs": [i64(4)], "attrs": {"value": np.array([1], np.int64)}},
                           {"y0": "[4]", "dtypes": {"y0": "i64"}}),
    "empty shape: a scalar": ({"inputs": [np.zeros(0, np.int64)]}, {"y0": "[]"}),
    "zero size": ({"inputs": [i64(0, 3)]}, {"y0": "[0, 3]"}),
    "a graph input's shape: names of their own": ({"inputs": [("i64", "[3]")]},
                                                 {"y0": "[_c1, _c2, _c3]"}),
    "backward: the shape's length from the output": ({"inputs": [("i64", "S")],
                                                      "outputs": {"y0": {"shape": "[b, 4]"}}},
                                                     {"x0": "[2]"}),
    "negative size": ({"inputs": [i64(2, -3)]}, "error"),
    "value of two elements": ({"inputs": [i64(2)], "attrs": {"value": np.array([1, 2], np.int64)}},
                              "error"),
    "shape of rank 2": ({"inputs": [np.array([[2, 3]], np.int64)]}, "error"),
}


test_case = case_test("ConstantOfShape", CASES, OPSET)


def test_shape_from_a_shape_computation():
    """Shape -> ConstantOfShape gives X's shape; its small integer result has values."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, 64]"}, "d": {"shape": "D"}},
         "initializers": {"two": {"dtype": "i64", "shape": [1], "data": [2]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "ConstantOfShape", "inputs": ["sh"], "outputs": ["y"]},
                   {"op": "ConstantOfShape", "inputs": ["two"], "outputs": ["ones"],
                    "attrs": {"value": {"dtype": "i64", "shape": [1], "data": [5]}}},
                   {"op": "Reshape", "inputs": ["d", "ones"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("y") == "[b, s, 64]" and sol.shape("r") == "[5, 5]"


def test_a_size_the_bounds_do_not_prove_at_least_zero():
    """A value must be >= 0 (else the node fails): s - 5 is the size wherever it runs, though
    s may be below 5 (a length from convolutions, `((len//80 + 1)//2 + 1)//2 - 1`, was a
    fresh name)."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]},
                          "five": {"dtype": "i64", "shape": [1], "data": [5]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "one"], "outputs": ["s"]},
                   {"op": "Sub", "inputs": ["s", "five"], "outputs": ["d"]},
                   {"op": "ConstantOfShape", "inputs": ["d"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[s - 5]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(-1, 4), max_size=4),
       st.sampled_from([None, np.float32, np.int64, np.int32, np.bool_]))
def test_matches_reference(shape, dtype):
    # the reference takes the `value` attribute as a TensorProto, the rules as an array
    attrs = None if dtype is None else {"value": np.array([1], dtype)}
    ref_attrs = None if dtype is None else {"value": numpy_helper.from_array(attrs["value"])}
    sol = infer("ConstantOfShape", [i64(*shape).reshape(-1)], attrs, opset=OPSET)
    try:
        (out,) = reference_outputs("ConstantOfShape", [i64(*shape).reshape(-1)], ref_attrs,
                                   opset=OPSET, const=[0])
    except Exception:  # a negative size
        assert sol.status == "error"
        return
    assert sol.status == "ok"
    assert sol.shape("y0") == str(list(out.shape))
    assert sol.dtype("y0") == {np.float32: "f32", np.int64: "i64", np.int32: "i32",
                               np.bool_: "bool"}[out.dtype.type]
