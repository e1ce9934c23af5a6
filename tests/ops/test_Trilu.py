"""Trilu: rules/Trilu.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "upper": ({"inputs": ["[b, n, m]"]}, {"y0": "[b, n, m]"}),
    "lower with k": ({"inputs": ["[n, m]", np.array(-1, np.int64)], "attrs": {"upper": 0}},
                     {"y0": "[n, m]"}),
    "runtime k": ({"inputs": ["[n, m]", ("i64", "[]")]}, {"y0": "[n, m]"}),
    "dtype kept": ({"inputs": [("i32", "[2, 2]")]}, {"y0": "[2, 2]", "dtypes": {"y0": "i32"}}),
    "backward": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[3, 4]"}}}, {"x0": "[3, 4]"}),
    "a vector": ({"inputs": ["[n]"]}, "error"),
    "a scalar": ({"inputs": ["[]"]}, "error"),
    "float k": ({"inputs": ["[n, m]", ("f32", "[]")]}, "error"),
}


test_case = case_test("Trilu", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=4), st.integers(-3, 3), st.booleans())
def test_matches_reference(shape, k, upper):
    # (numpy, the reference, also takes a vector, which ONNX forbids: a case above)
    check_against_reference("Trilu", [random_array(shape), np.array(k, np.int64)],
                            {"upper": int(upper)}, opset=OPSET, const=[1])
