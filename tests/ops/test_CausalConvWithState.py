"""CausalConvWithState: rules/CausalConvWithState.lp on data cases, and against onnx's
reference on random shapes, kernels, states and activations (the kernel's values:
tests/kernels/test_decoding.py); com.microsoft's on data cases (its ndim, dilation,
channels_last, state_window and extended options) and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

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


CL = {"channels_last": 1}
MS_CASES = {
    "symbolic, dilation 3": ({"inputs": ["[b, c, l]", "[c, 1, k]"], "n_outputs": 2,
                              "attrs": {"dilation": 3}},
                             {"y0": "[b, c, l]", "y1": "[b, c, 3*k - 3]"}),
    "bias and past state, silu": (
        {"inputs": ["[b, c, l]", "[c, 1, 4]", "B", "P"], "n_outputs": 2,
         "attrs": {"activation": "silu"}},
        {"x2": "[c]", "x3": "[b, c, 3]", "y1": "[b, c, 3]"}),
    "backward: the kernel from the past state": (
        {"inputs": ["[b, c, l]", "[c, 1, k]", None, "[b, c, 5]"], "n_outputs": 2},
        {"x1": "[c, 1, 6]"}),
    "backward, dilation 2: the kernel is left to the core": (
        {"inputs": ["[b, c, l]", "[c, 1, k]", None, "[b, c, 6]"], "n_outputs": 2,
         "attrs": {"dilation": 2}}, {"x1": "[c, 1, 4]"}),
    "channels last": ({"inputs": ["[b, l, c]", "W", None, "P"], "n_outputs": 2,
                       "attrs": {**CL, "dilation": 2}},
                      {"x1": "[c, 1, _1]", "y0": "[b, l, c]", "x3": "[b, _2, c]"}),
    "channels last, two channel axes": ({"inputs": ["[b, l, 3, 4]", "W"], "n_outputs": 2,
                                         "attrs": CL},
                                        {"x1": "[12, 1, _1]", "y1": "[b, _2, 3, 4]"}),
    "ndim 2 (CUDA's)": ({"inputs": ["[b, c, h, w]", "[c, 1, 2, 3]"], "n_outputs": 2,
                         "attrs": {"ndim": 2}}, {"y0": "[b, c, h, w]", "y1": "[b, c, h, 2]"}),
    "ndim 3, dilation 2 (CUDA's)": ({"inputs": ["[2, 3, 4, 5, 6]", "[3, 1, 2, 2, 3]"],
                                     "n_outputs": 2, "attrs": {"ndim": 3, "dilation": 2}},
                                    {"y1": "[2, 3, 4, 5, 4]"}),
    "state window 3 (CUDA's)": ({"inputs": ["[b, c, l]", "[c, 1, 4]", None, "P"],
                                 "n_outputs": 2, "attrs": {"state_window": 3}},
                                {"x3": "[3, b, c, 3]", "y1": "[3, b, c, 3]"}),
    "extended: a channel slice, a longer state, state_update (CUDA's)": (
        {"inputs": ["[b, l, 8]", "W"], "n_outputs": 3,
         "attrs": {**CL, "input_channels": 2, "input_channel_offset": 1, "state_length": 6,
                   "state_update_capacity": 2}},
        {"y0": "[b, l, 2]", "x1": "[2, 1, _1]", "y1": "[b, 6, 2]", "y2": "[b, 2, 2]"}),
    "extended: channels-first states (CUDA's)": (
        {"inputs": ["[b, l, c]", "[c, 1, 4]"], "n_outputs": 2,
         "attrs": {**CL, "state_channels_last": 0}}, {"y0": "[b, l, c]", "y1": "[b, c, 3]"}),
    "bfloat16": ({"inputs": [("bf16", "[b, c, l]"), ("bf16", "[c, 1, 3]")], "n_outputs": 2},
                 {"dtypes": {"y0": "bf16", "y1": "bf16"}}),
    # errors
    "ndim 4": ({"inputs": ["[b, c, l]", "[c, 1, 3]"], "n_outputs": 2, "attrs": {"ndim": 4}},
               "error"),
    "dilation 0": ({"inputs": ["[b, c, l]", "[c, 1, 3]"], "n_outputs": 2,
                    "attrs": {"dilation": 0}}, "error"),
    "a past state of the undilated length": (
        {"inputs": ["[b, 4, l]", "[4, 1, 3]", None, "[b, 4, 2]"], "n_outputs": 2,
         "attrs": {"dilation": 2}}, "error"),
    "ndim 2 of a 3-D input": ({"inputs": ["[b, c, l]", "[c, 1, 3]"], "n_outputs": 2,
                               "attrs": {"ndim": 2}}, "error"),
    "channels_last 2": ({"inputs": ["[b, l, c]", "[c, 1, 3]"], "n_outputs": 2,
                         "attrs": {"channels_last": 2}}, "error"),
    "channels last, ndim 2": ({"inputs": ["[b, l, c]", "[c, 1, 3, 3]"], "n_outputs": 2,
                               "attrs": {**CL, "ndim": 2}}, "error"),
    "channels last of rank 2": ({"inputs": ["[b, l]", "[1, 1, 3]"], "n_outputs": 2,
                                 "attrs": CL}, "error"),
    "channels last, the weight's channels differ": (
        {"inputs": ["[b, l, 3, 2]", "[5, 1, 3]"], "n_outputs": 2, "attrs": CL}, "error"),
    "state window 9": ({"inputs": ["[b, c, l]", "[c, 1, 3]"], "n_outputs": 2,
                        "attrs": {"state_window": 9}}, "error"),
    "an extended option channels first": ({"inputs": ["[b, c, l]", "[c, 1, 3]"],
                                           "n_outputs": 2, "attrs": {"state_length": 5}},
                                          "error"),
    "a third output channels first": ({"inputs": ["[b, c, l]", "[c, 1, 3]"], "n_outputs": 3},
                                      "error"),
    "a third output without a capacity": ({"inputs": ["[b, l, c]", "[c, 1, 3]"],
                                           "n_outputs": 3, "attrs": CL}, "error"),
    "a short state_length": ({"inputs": ["[b, l, 3]", "[3, 1, 4]"], "n_outputs": 2,
                              "attrs": {**CL, "state_length": 2}}, "error"),
    "a channel slice past the width": ({"inputs": ["[b, l, 3]", "[2, 1, 4]"], "n_outputs": 2,
                                        "attrs": {**CL, "input_channels": 2,
                                                  "input_channel_offset": 2}}, "error"),
    "an extended 4-D input": ({"inputs": ["[b, l, 3, 1]", "[3, 1, 4]"], "n_outputs": 2,
                               "attrs": {**CL, "state_length": 5}}, "error"),
    "state_update_capacity 9": ({"inputs": ["[b, l, 3]", "[3, 1, 4]"], "n_outputs": 3,
                                 "attrs": {**CL, "state_update_capacity": 9}}, "error"),
    "one output": ({"inputs": ["[b, 4, l]", "[4, 1, 3]"], "n_outputs": 1}, "error"),
    "float64": ({"inputs": [("f64", "[b, 4, l]"), ("f64", "[4, 1, 3]")], "n_outputs": 2},
                "error"),
    "an unknown activation": ({"inputs": ["[b, 4, l]", "[4, 1, 3]"], "n_outputs": 2,
                               "attrs": {"activation": "relu"}}, "error"),
}


test_ms_case = case_test("CausalConvWithState", MS_CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(1, 2),
       chans=st.sampled_from([[1], [3], [2, 2]]), length=st.integers(0, 5),
       k=st.integers(0, 4), dil=st.sampled_from([None, 1, 2]), bias=st.booleans(),
       past=st.booleans(), cl=st.booleans(), off=st.sampled_from([0, 0, 0, 1]),
       act=st.sampled_from([None, "none", "silu", "swish"]),
       cuda=st.sampled_from([None, None, None, ("ndim", 2), ("state_window", 2),
                             ("state_length", 9)]),
       dtype=st.sampled_from([np.float32, np.float32, np.float16]))
def test_ms_matches_onnxruntime(seed, b, chans, length, k, dil, bias, past, cl, off, act,
                                cuda, dtype):
    """off: a past state one position too long (rejected); k 0: no tap (rejected); cuda: an
    option onnxruntime's CPU kernel lacks (its shape inference takes it)."""
    rng = np.random.default_rng(seed)
    chans = chans if cl else chans[:1]
    c, carry = int(np.prod(chans)), max(k - 1, 0) * (dil or 1) + off
    x = (rng.standard_normal((b, length, *chans)) if cl else
         rng.standard_normal((b, c, length))).astype(dtype)
    state = (b, carry, *chans) if cl else (b, c, carry)
    arrays = [x, rng.standard_normal((c, 1, k)).astype(dtype),
              rng.standard_normal(c).astype(dtype) if bias else None,
              rng.standard_normal(state).astype(dtype) if past else None]
    attrs = {key: v for key, v in (("dilation", dil), ("activation", act)) if v}
    attrs.update(CL if cl else {})
    if cuda:
        attrs.update([cuda] if cuda[0] != "state_length" or cl else [])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    limit = len(attrs.keys() & {"ndim", "state_window", "state_length"}) > 0
    got = check_against_onnxruntime("CausalConvWithState", arrays, attrs, 2, rtol=tol,
                                    atol=tol, ort_fails_ok=limit)
    assert (got is None) == (limit or k == 0 or (past and off == 1))
