"""FusedGemm (com.microsoft): rules/FusedGemm.lp on data cases, and the rules and the kernel
against onnxruntime on random products and activations."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime


def case(inputs, attrs=None, outputs=None, opset=18):
    spec = {"inputs": inputs, "attrs": attrs or {}, "domain": MS, "opset": opset}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "a Linear layer with Relu": (case(["[b, 64]", "[10, 64]", "[10]"],
                                      {"transB": 1, "activation": "Relu"}), {"y0": "[b, 10]"}),
    "transA, no C": (case(["[k, m]", "[k, n]"], {"transA": 1, "activation": "Tanh"}),
                     {"y0": "[m, n]"}),
    "Selu with its alpha and gamma": (
        case(["[m, k]", "[k, 5]", "[1, 5]"], {"activation": "Selu", "activation_alpha": 1.6,
                                              "activation_gamma": 1.05}), {"y0": "[m, 5]"}),
    "backward: k from B": (case(["[m, k]", "[3, n]"], {"activation": "Relu"}),
                           {"x0": "[m, 3]"}),
    "C broadcasts whatever the model's opset (onnxruntime's kernel)": (
        case(["[2, 3]", "[3, 4]", "[4]"], {"activation": "Relu"}, opset=6), {"y0": "[2, 4]"}),
    "C may be absent whatever the model's opset": (
        case(["[2, 3]", "[3, 4]"], {"activation": "Relu"}, opset=9), {"y0": "[2, 4]"}),
    "int32": (case([("i32", "[2, 3]"), ("i32", "[3, 4]")], {"activation": "Relu"}),
              {"dtypes": {"y0": "i32"}}),
    "k differs": (case(["[2, 3]", "[4, 5]"], {"activation": "Relu"}), "error"),
    "a 3-D operand": (case(["[2, 2, 3]", "[3, 5]"], {"activation": "Relu"}), "error"),
    "no activation (onnxruntime has no FusedGemm without one)": (case(["[2, 3]", "[3, 4]"]),
                                                                "error"),
    "LeakyRelu without activation_alpha": (case(["[2, 3]", "[3, 4]"],
                                                {"activation": "LeakyRelu"}), "error"),
    "Selu without activation_gamma": (case(["[2, 3]", "[3, 4]"], {
        "activation": "Selu", "activation_alpha": 1.6}), "error"),
    "an activation onnxruntime does not fuse here": (case(["[2, 3]", "[3, 4]"],
                                                          {"activation": "Gelu"}), "error"),
    "bfloat16": (case([("bf16", "[2, 3]"), ("bf16", "[3, 4]")], {"activation": "Relu"}),
                 "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("FusedGemm", spec, expected)


ACTIVATIONS = [("Relu", {}), ("Tanh", {}), ("Sigmoid", {}), ("Softplus", {}),
               ("Softsign", {}), ("Elu", {"activation_alpha": 0.7}),
               ("LeakyRelu", {"activation_alpha": 0.2}),
               ("ThresholdedRelu", {"activation_alpha": 0.1}),
               ("HardSigmoid", {"activation_alpha": 0.3, "activation_beta": 0.4}),
               ("Selu", {"activation_alpha": 1.6, "activation_gamma": 1.05}),
               ("ParametricSoftplus", {"activation_alpha": 0.5, "activation_beta": 1.5}),
               ("ScaledTanh", {"activation_alpha": 2.0, "activation_beta": 0.5})]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 4), k=st.integers(1, 4),
       n=st.integers(1, 4), ta=st.booleans(), tb=st.booleans(),
       c=st.sampled_from([None, "n", "1n", "m1", "mn", "scalar"]),
       alpha=st.sampled_from([1.0, 0.5]), beta=st.sampled_from([1.0, 2.0]),
       act=st.sampled_from(ACTIVATIONS))
def test_matches_onnxruntime(seed, m, k, n, ta, tb, c, alpha, beta, act):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    c_shape = {None: None, "n": (n,), "1n": (1, n), "m1": (m, 1), "mn": (m, n), "scalar": ()}[c]
    cc = None if c_shape is None else rng.standard_normal(c_shape).astype(np.float32)
    attrs = {"transA": int(ta), "transB": int(tb), "alpha": alpha, "beta": beta,
             "activation": act[0], **act[1]}
    assert check_against_onnxruntime("FusedGemm", [a, b, cc], attrs) is not None
