"""CausalConvWithState: rules/CausalConvWithState.lp on data cases, and against onnx's
reference on random shapes, kernels, states and activations (the kernel's values:
tests/kernels/test_decoding.py)."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

OPSET = 27

CASES = {
    "symbolic: the state is the kernel less one": (
        {"inputs": ["[b, c, l]", "[c, 1, k]"]}, {"y0": "[b, c, l]", "y1": "[b, c, k - 1]"}),
    "a known kernel, bias and past state": (
        {"inputs": ["[b, c, l]", "[c, 1, 4]", "B", "P"], "attrs": {"activation": "silu"}},
        {"x2": "[c]", "x3": "[b, c, 3]", "y1": "[b, c, 3]"}),
    "the weight's channels from the input": ({"inputs": ["[2, 16, 5]", "W"]},
                                             {"x1": "[16, 1, _1]", "y0": "[2, 16, 5]"}),
    "kernel size one: an empty state": ({"inputs": ["[b, c, l]", "[c, 1, 1]"]},
                                        {"y1": "[b, c, 0]"}),
    "bfloat16": ({"inputs": [("bf16", "[b, c, l]"), ("bf16", "[c, 1, 3]")]},
                 {"dtypes": {"y0": "bf16", "y1": "bf16"}}),
    "backward: the kernel's length from the past state": (
        {"inputs": ["[b, c, l]", "[c, 1, k]", None, "[b, c, 5]"]},
        {"x1": "[c, 1, 6]", "bindings": {"k": 6}}),
    "backward: an unknown weight from the present state": (
        {"inputs": ["[b, c, l]", "W"], "outputs": {"y1": {"shape": "[2, 16, 3]"}}},
        {"x0": "[2, 16, l]", "x1": "[16, 1, 4]"}),
    # errors
    "the weight's middle axis is not 1": ({"inputs": ["[b, 4, l]", "[4, 2, 3]"]}, "error"),
    "the weight's channels differ": ({"inputs": ["[b, 4, l]", "[3, 1, 3]"]}, "error"),
    "a kernel of no taps": ({"inputs": ["[b, 4, l]", "[4, 1, 0]"]}, "error"),
    "a past state of another length": ({"inputs": ["[b, 4, l]", "[4, 1, 3]", None, "[b, 4, 3]"]},
                                       "error"),
    "a bias of another length": ({"inputs": ["[b, 4, l]", "[4, 1, 3]", "[5]"]}, "error"),
    "a 4-D input": ({"inputs": ["[b, 4, l, 1]", "[4, 1, 3]"]}, "error"),
    "float64": ({"inputs": [("f64", "[b, 4, l]"), ("f64", "[4, 1, 3]")]}, "error"),
    "a weight of another type": ({"inputs": ["[b, 4, l]", ("f16", "[4, 1, 3]")]}, "error"),
    "an unknown activation": ({"inputs": ["[b, 4, l]", "[4, 1, 3]"],
                               "attrs": {"activation": "relu"}}, "error"),
    "no present_state": ({"inputs": ["[b, 4, l]", "[4, 1, 3]"], "n_outputs": 1}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, want = CASES[name]
    check_case("CausalConvWithState", {"opset": OPSET, "n_outputs": 2, **spec}, want)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(0, 6), st.integers(1, 5),
       st.booleans(), st.booleans(), st.sampled_from([None, "none", "silu", "swish"]),
       st.sampled_from(["f32", "f32", "f16"]))
def test_matches_reference(batch, channels, length, k, bias, past, activation, dtype):
    arrays = [random_array([batch, channels, length], dtype),
              random_array([channels, 1, k], dtype),
              random_array([channels], dtype) if bias else None,
              random_array([batch, channels, k - 1], dtype) if past else None]
    attrs = {} if activation is None else {"activation": activation}
    check_against_reference("CausalConvWithState", arrays, attrs, n_outputs=2, opset=OPSET)
