"""LpNormalization: rules/LpNormalization.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "shape kept": ({"inputs": ["[b, s, d]"]}, {"y0": "[b, s, d]"}),
    "axis 0, p = 1": ({"inputs": ["[b, 3]"], "attrs": {"axis": 0, "p": 1}}, {"y0": "[b, 3]"}),
    "dtype": ({"inputs": [("f64", "[3]")]}, {"dtypes": {"y0": "f64"}}),
    "backward": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[2, n]"}}}, {"x0": "[2, n]"}),
    "axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axis": 2}}, "error"),
    "a scalar has no last axis": ({"inputs": ["[]"]}, "error"),
    "p = 3": ({"inputs": ["[b, s]"], "attrs": {"p": 3}}, "error"),
    "integer elements": ({"inputs": [("i32", "[3]")]}, "error"),
}


test_case = case_test("LpNormalization", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data(), st.sampled_from([1, 2]),
       st.integers(0, 2**32 - 1))
def test_matches_reference(shape, data, p, seed):
    # positive values: onnx's reference sums x^p, not |x|^p (wrong for p = 1 and negative
    # elements; the kernel follows the spec, tests/kernels compares it on such values)
    r = len(shape)
    axis = data.draw(st.integers(-r - 1, r))
    x = np.random.default_rng(seed).uniform(0.1, 3, shape).astype(np.float32)
    check_against_reference("LpNormalization", [x], {"axis": axis, "p": p}, opset=OPSET)
