"""Multinomial: rules/Multinomial.lp on data cases; the kernel's shapes, types, seeding and
distribution (tests/kernels/test_nn.py compares it with onnx's reference)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.graph import dtype_of_array
from shape_logic.kernels import load_kernel
from shape_logic.testing import infer
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "one draw per row, int32": ({"inputs": ["[b, c]"]}, {"y0": "[b, 1]", "dtypes": {"y0": "i32"}}),
    "draws and int64": ({"inputs": ["[b, 10]"], "attrs": {"sample_size": 5, "dtype": 7}},
                        {"y0": "[b, 5]", "dtypes": {"y0": "i64"}}),
    "backward: the batch": ({"inputs": ["[b, c]"], "outputs": {"y0": {"shape": "[4, 1]"}}},
                            {"x0": "[4, c]", "bindings": {"b": 4}}),
    "a row of probabilities is no input": ({"inputs": ["[c]"]}, "error"),
    "a float dtype": ({"inputs": ["[b, c]"], "attrs": {"dtype": 1}}, "error"),
    "no draws": ({"inputs": ["[b, c]"], "attrs": {"sample_size": 0}}, "error"),
    "integer input": ({"inputs": [("i64", "[b, c]")]}, "error"),
}


test_case = case_test("Multinomial", CASES, OPSET)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(1, 6), st.sampled_from([6, 7]))
def test_rule_and_kernel_agree(batch, classes, draws, dtype):
    attrs = {"sample_size": draws, "dtype": dtype}
    x = np.zeros((batch, classes), np.float32)
    (y,) = load_kernel("Multinomial")(attrs)(x)
    sol = infer("Multinomial", [[batch, classes]], attrs, opset=OPSET)
    assert sol.shape("y0") == f"[{batch}, {draws}]" and y.shape == (batch, draws)
    assert sol.dtype("y0") == {6: "i32", 7: "i64"}[dtype] == dtype_of_array(y)
    assert y.min() >= 0 and y.max() < classes
