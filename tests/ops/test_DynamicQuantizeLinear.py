"""DynamicQuantizeLinear: rules/DynamicQuantizeLinear.lp on data cases, and against onnx's
reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "x's shape, two scalars": ({"inputs": ["[b, s, 768]"], "n_outputs": 3},
                               {"y0": "[b, s, 768]", "y1": "[]", "y2": "[]",
                                "dtypes": {"y0": "u8", "y1": "f32", "y2": "u8"}}),
    "backward": ({"inputs": ["X"], "n_outputs": 3, "outputs": {"y0": {"shape": "[n, 4]"}}},
                 {"x0": "[n, 4]"}),
    "float16 input": ({"inputs": [("f16", "[3]")], "n_outputs": 3}, "error"),
    "a scale that is no scalar": ({"inputs": ["[3]"], "n_outputs": 3,
                                   "outputs": {"y1": {"shape": "[1]"}}}, "error"),
}


test_case = case_test("DynamicQuantizeLinear", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 5), max_size=3), st.integers(0, 2**32 - 1))
def test_matches_reference(shape, seed):
    x = np.random.default_rng(seed).uniform(-3, 5, shape).astype(np.float32)
    check_against_reference("DynamicQuantizeLinear", [x], None, n_outputs=3, opset=OPSET)
