"""Asinh: rules/Asinh.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "dtype": ({"inputs": [("f16", "[n, 3]")]},
              {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
    "backward from the output": ({"inputs": ["S"],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "output dtype clashes": ({"inputs": ["[2, 3]"],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
    "integer elements": ({"inputs": [("i64", "[3]")]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Asinh", {"opset": OPSET, **spec}, expected)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(["f16", "f32", "f64"]),
       st.integers(0, 2**32 - 1))
def test_matches_reference(shape, dtype, seed):
    # values inside the function's domain (-9..9)
    np_dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype]
    x = np.random.default_rng(seed).uniform(-9, 9, shape).astype(np_dtype)
    check_against_reference("Asinh", [x], None, opset=OPSET)
