"""Celu: rules/Celu.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 28
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "backward from the output": ({"inputs": ["S"],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
    "dtype": ({"inputs": [("f16", "[n, 3]")]}, {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
    "integer elements": ({"inputs": [("i64", "[3]")]}, "error"),
    "only f32 before opset 28": ({"inputs": [("f64", "[3]")], "opset": 12}, "error"),
    "f32 in opset 12": ({"inputs": ["[3, n]"], "opset": 12}, {"y0": "[3, n]"}),
}


test_case = case_test("Celu", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.floats(0.1, 3), st.integers(0, 2**32 - 1))
def test_matches_reference(shape, alpha, seed):
    x = np.random.default_rng(seed).uniform(-4, 4, shape).astype(np.float32)
    check_against_reference("Celu", [x], {"alpha": alpha}, opset=12)
