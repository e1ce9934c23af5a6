"""Constant: rules/Constant.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import numpy_helper

from shape_logic.solver import solve
from shape_logic.testing import infer, reference_outputs
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "value tensor": ({"inputs": [], "attrs": {"value": np.zeros((2, 3), np.float32)}},
                     {"y0": "[2, 3]", "dtypes": {"y0": "f32"}}),
    "value scalar tensor": ({"inputs": [], "attrs": {"value": np.array(3, np.int64)}},
                            {"y0": "[]", "dtypes": {"y0": "i64"}}),
    "value_int": ({"inputs": [], "attrs": {"value_int": 3}}, {"y0": "[]", "dtypes": {"y0": "i64"}}),
    "value_ints": ({"inputs": [], "attrs": {"value_ints": [3, 4, 5]}},
                   {"y0": "[3]", "dtypes": {"y0": "i64"}}),
    "value_ints empty": ({"inputs": [], "attrs": {"value_ints": []}}, {"y0": "[0]"}),
    "value_float": ({"inputs": [], "attrs": {"value_float": 0.5}},
                    {"y0": "[]", "dtypes": {"y0": "f32"}}),
    "value_floats": ({"inputs": [], "attrs": {"value_floats": [0.5, 1.0]}},
                     {"y0": "[2]", "dtypes": {"y0": "f32"}}),
    "value_string": ({"inputs": [], "attrs": {"value_string": "a"}},
                     {"y0": "[]", "dtypes": {"y0": "str"}}),
    "value_strings": ({"inputs": [], "attrs": {"value_strings": ["a", "b"]}},
                      {"y0": "[2]", "dtypes": {"y0": "str"}}),
    "no value": ({"inputs": [], "attrs": {}}, "error"),
    "two values": ({"inputs": [], "attrs": {"value_int": 3, "value_ints": [3]}}, "error"),
    "an input": ({"inputs": ["[2]"], "attrs": {"value_int": 3}}, "error"),
    "output annotation clashes": ({"inputs": [], "attrs": {"value_ints": [1, 2]},
                                   "outputs": {"y0": {"shape": "[3]"}}}, "error"),
}


test_case = case_test("Constant", CASES, OPSET)


@pytest.mark.parametrize("attrs, want", [
    ({"value_ints": [4, -1]}, "[4, 192*b*s]"),
    ({"value": {"dtype": "i64", "shape": [3], "data": [0, -1, 96]}}, "[b, 8*s, 96]"),
])
def test_values_reach_reshape(attrs, want):
    """Constant -> Reshape: exporters write Reshape's shape as a Constant node."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, 768]"}},
         "nodes": [{"op": "Constant", "outputs": ["c"], "attrs": attrs},
                   {"op": "Reshape", "inputs": ["x", "c"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("r") == want


DTYPES = {np.float32: "f32", np.float64: "f64", np.int64: "i64", np.int32: "i32",
          np.uint8: "u8", np.bool_: "bool"}


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=3), st.sampled_from(list(DTYPES)),
       st.sampled_from(["value", "value_ints", "value_floats", "value_int", "value_float"]))
def test_matches_reference(shape, dtype, key):
    # the reference takes `value` as a TensorProto, the rules as an array
    rng = np.random.default_rng(0)
    arr = (rng.integers(0, 5, size=shape)).astype(dtype)
    if key == "value":
        attrs, ref_attrs = {key: arr}, {key: numpy_helper.from_array(arr)}
    elif key in ("value_ints", "value_floats"):
        if arr.size == 0:  # onnx's helper cannot make an empty list attribute (a case above)
            arr = np.ones(1, dtype)
        v = arr.reshape(-1).astype(int if key == "value_ints" else float).tolist()
        attrs = ref_attrs = {key: v}
    else:
        attrs = ref_attrs = {key: 2 if key == "value_int" else 2.5}
    (out,) = reference_outputs("Constant", [], ref_attrs, opset=OPSET)
    sol = infer("Constant", [], attrs, opset=OPSET)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y0") == str(list(np.shape(out)))
    assert sol.dtype("y0") == DTYPES[np.asarray(out).dtype.type]
