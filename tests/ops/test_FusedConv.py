"""FusedConv (com.microsoft): rules/FusedConv.lp on data cases, and the rules and the kernel
against onnxruntime on random convolutions, activations and sums."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, ms_case as case


CASES = {
    "a ResNet stem: 7x7, stride 2, Relu": (
        case(["[n, 3, h, w]", "[64, 3, 7, 7]", "[64]"],
             {"activation": "Relu", "strides": [2, 2], "pads": [3, 3, 3, 3]}),
        {"y0": "[n, 64, (h + 1)//2, (w + 1)//2]"}),
    "the residual sum Z has the output's shape": (
        case(["[n, 8, h, w]", "[8, 8, 3, 3]", "[8]", "Z"],
             {"activation": "Relu", "pads": [1, 1, 1, 1]}), {"x3": "[n, 8, h, w]"}),
    "LeakyRelu with its alpha, no activation at all": (
        case(["[n, 4, 9]", "[6, 4, 3]"], {"activation": "LeakyRelu",
                                          "activation_params": [0.1]}), {"y0": "[n, 6, 7]"}),
    "no activation": (case(["[1, 2, 5, 5]", "[3, 2, 3, 3]"]), {"y0": "[1, 3, 3, 3]"}),
    "groups, SAME padding, Clip": (
        case(["[n, 32, h, w]", "[32, 1, 3, 3]"],
             {"group": 32, "auto_pad": "SAME_UPPER", "strides": [2, 2],
              "activation": "Clip", "activation_params": [0.0, 6.0]}),
        {"y0": "[n, 32, (h + 1)//2, (w + 1)//2]"}),
    "backward: the input's channels from W": (
        case(["[n, c, 5, 5]", "[4, 3, 3, 3]"], {"activation": "Sigmoid"}), {"x0": "[n, 3, 5, 5]"}),
    "f16": (case([("f16", "[1, 2, 5, 5]"), ("f16", "[3, 2, 3, 3]")]), {"dtypes": {"y0": "f16"}}),
    "Z broadcast is refused": (case(["[1, 2, 5, 5]", "[3, 2, 3, 3]", "[3]", "[1, 3, 1, 1]"]),
                               "error"),
    "channels differ": (case(["[1, 2, 5, 5]", "[3, 4, 3, 3]"]), "error"),
    "LeakyRelu without its alpha": (case(["[1, 2, 5, 5]", "[3, 2, 3, 3]"],
                                         {"activation": "LeakyRelu"}), "error"),
    "Clip with one bound": (case(["[1, 2, 5, 5]", "[3, 2, 3, 3]"],
                                 {"activation": "Clip", "activation_params": [0.0]}), "error"),
    "an activation onnxruntime does not fuse": (case(["[1, 2, 5, 5]", "[3, 2, 3, 3]"],
                                                     {"activation": "Gelu"}), "error"),
    "integers": (case([("i32", "[1, 2, 5, 5]"), ("i32", "[3, 2, 3, 3]")]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("FusedConv", spec, expected)


ACTIVATIONS = [("", None), ("Relu", None), ("Tanh", None), ("Sigmoid", None),
               ("LeakyRelu", [0.2]), ("Clip", [-0.5, 0.5]), ("HardSigmoid", [0.3, 0.4])]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spatial=st.integers(1, 2),
       size=st.lists(st.integers(3, 7), min_size=2, max_size=2), k=st.integers(1, 3),
       stride=st.integers(1, 2), pad=st.integers(0, 1), group=st.sampled_from([1, 2]),
       bias=st.booleans(), addend=st.booleans(), act=st.sampled_from(ACTIVATIONS))
def test_matches_onnxruntime(seed, spatial, size, k, stride, pad, group, bias, addend, act):
    rng = np.random.default_rng(seed)
    c, m = 2 * group, 2 * group
    x = rng.standard_normal([2, c] + size[:spatial]).astype(np.float32)
    w = rng.standard_normal([m, c // group] + [k] * spatial).astype(np.float32)
    out = [(d + 2 * pad - k) // stride + 1 for d in size[:spatial]]
    b = rng.standard_normal([m]).astype(np.float32) if bias else None
    z = rng.standard_normal([2, m] + out).astype(np.float32) if addend else None
    attrs = {"strides": [stride] * spatial, "pads": [pad] * (2 * spatial), "group": group}
    if act[0]:
        attrs["activation"] = act[0]
    if act[1]:
        attrs["activation_params"] = act[1]
    assert check_against_onnxruntime("FusedConv", [x, w, b, z], attrs) is not None
