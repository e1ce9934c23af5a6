"""Shrink: rules/Shrink.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "backward from the output": ({"inputs": ["S"],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
    "integers": ({"inputs": [("i8", "[n, 3]")]}, {"y0": "[n, 3]", "dtypes": {"y0": "i8"}}),
    "bool elements": ({"inputs": [("bool", "[3]")]}, "error"),
}


test_case = case_test("Shrink", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(["f32", "f64", "i32", "i8"]),
       st.floats(0, 2), st.floats(-1, 1), st.integers(0, 2**32 - 1))
def test_matches_reference(shape, dtype, lambd, bias, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-4, 4, shape)
    x = (np.round(x) if dtype.startswith("i") else x).astype(
        {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i8": np.int8}[dtype])
    check_against_reference("Shrink", [x], {"lambd": lambd, "bias": bias}, opset=OPSET)
