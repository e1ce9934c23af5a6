"""SimplifiedLayerNormalization (onnxruntime's RMSNorm, in ONNX's domain ""): rules on data
cases, and the rules and the kernel against onnxruntime on random shapes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime

OP = "SimplifiedLayerNormalization"
CASES = {
    "symbolic, both outputs": ({"inputs": ["[b, s, 4096]", "S"], "n_outputs": 2},
                               {"y0": "[b, s, 4096]", "y1": "[b, s, 1]", "x1": "S"}),
    "Y takes the scale's type": ({"inputs": [("f16", "[b, s, h]"), "[h]"], "n_outputs": 2},
                                 {"y0": "[b, s, h]", "dtypes": {"y0": "f32", "y1": "f32"}}),
    "a float16 scale": ({"inputs": ["[b, h]", ("f16", "[h]")], "n_outputs": 2},
                        {"dtypes": {"y0": "f16", "y1": "f32"}}),
    "stash_type 11: a float64 inv_std_var": (
        {"inputs": [("f64", "[b, h]"), ("f64", "[h]")], "n_outputs": 2,
         "attrs": {"stash_type": 11}}, {"dtypes": {"y1": "f64"}}),
    "axis 1": ({"inputs": ["[b, s, h]", "[s, h]"], "n_outputs": 2, "attrs": {"axis": 1}},
               {"y1": "[b, 1, 1]"}),
    "the scale broadcasts": ({"inputs": ["[b, s, h]", "[1, h]"]}, {"y0": "[b, s, h]"}),
    "a scale's size may be 1 (broadcast): not derived": ({"inputs": ["[b, s, 8]", "[n]"]},
                                                         {"x1": "[n]"}),
    "backward from the output": ({"inputs": ["X", "[h]"],
                                  "outputs": {"y0": {"shape": "[b, s, 8]"}}},
                                 {"x0": "[b, s, 8]"}),
    "the scale's size": ({"inputs": ["[b, s, 8]", "[4]"]}, "error"),
    "a scale of more axes": ({"inputs": ["[s, h]", "[2, s, h]"]}, "error"),
    "axis out of range": ({"inputs": ["[b, h]", "[h]"], "attrs": {"axis": 2}}, "error"),
    "a scalar X": ({"inputs": ["[]", "[1]"]}, "error"),
    "integer X": ({"inputs": [("i32", "[b, h]"), "[h]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


def test_a_com_microsoft_node_is_an_unknown_operator():
    # onnxruntime registers the operator in ONNX's domain only (a com.microsoft node fails
    # to load), as onnxruntime-genai's builder writes it
    sol = check_case(OP, {"inputs": ["[b, h]", "[h]"], "domain": MS}, {})
    assert sol.dims("y0") is None and any("no rule file for domain" in w for w in sol.warnings)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 5), min_size=1, max_size=4),
       data=st.data(), x_type=st.sampled_from([np.float32, np.float16, np.float64]),
       n_out=st.integers(1, 2), epsilon=st.sampled_from([1e-5, 1e-6, 0.1]))
def test_matches_onnxruntime(seed, shape, data, x_type, n_out, epsilon):
    rng = np.random.default_rng(seed)
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    tail = shape[axis % r:]
    scale_shape = data.draw(st.sampled_from([tail, tail[-1:], [1] * len(tail), shape]))
    scale_type = np.float64 if x_type == np.float64 else data.draw(
        st.sampled_from([np.float32, np.float16]))
    x = rng.standard_normal(shape).astype(x_type)
    scale = rng.standard_normal(scale_shape).astype(scale_type)
    tol = 3e-3 if np.float16 in (x_type, scale_type) else 1e-5
    attrs = {"axis": axis, "epsilon": epsilon}
    want = check_against_onnxruntime(OP, [x, scale], attrs, n_out, domain="", rtol=tol, atol=tol)
    assert want is not None


def test_onnxruntime_rejects_a_scale_that_does_not_broadcast():
    x, scale = np.ones((2, 3, 8), np.float32), np.ones(4, np.float32)
    assert check_against_onnxruntime(OP, [x, scale], {}, domain="") is None
