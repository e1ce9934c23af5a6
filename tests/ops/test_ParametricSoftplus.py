"""ParametricSoftplus (ONNX's default domain, an experimental operator onnx dropped): rules/
ParametricSoftplus.lp on data cases, and against onnxruntime's CPU kernel on random shapes."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import random_array
from tests import contrib_ops
from tests.ops.cases import case_test

# a float attribute, now and then an integer one (which onnxruntime refuses)
NUMBER = st.one_of(*[st.floats(-2, 2)] * 5, st.integers(-2, 2))
OP = "ParametricSoftplus"
OPSET = 9  # onnxruntime registers the operator up to opset 9
AB = {"alpha": 2.0, "beta": 0.5}
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"], "attrs": AB}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"], "attrs": AB}, {"y0": "[]"}),
    "f16": ({"inputs": [("f16", "[n, 3]")], "attrs": AB},
            {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
    "backward from the output": ({"inputs": ["S"], "attrs": AB,
                                  "outputs": {"y0": {"shape": "[4, n]"}}}, {"x0": "[4, n]"}),
    "integer elements": ({"inputs": [("i64", "[3]")], "attrs": AB}, "error"),
    "bf16 elements": ({"inputs": [("bf16", "[3]")], "attrs": AB}, "error"),
    "no alpha": ({"inputs": ["[3]"], "attrs": {"beta": 1.0}}, "error"),
    "no beta": ({"inputs": ["[3]"], "attrs": {"alpha": 1.0}}, "error"),
    "integer attribute": ({"inputs": ["[3]"], "attrs": {"beta": 1.0, "alpha": 2}}, "error"),
    "list attribute": ({"inputs": ["[3]"], "attrs": {"beta": 1.0, "alpha": [2.0]}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"], "attrs": AB}, "error"),
}

test_case = case_test(OP, CASES, OPSET)


# inputs onnxruntime runs: compared for sure (random ones are often rejected)
RUNS = [
    [(2, 3, 4), "f32", {"alpha": 1.5, "beta": 0.7}],
    [(5,), "f16", {"alpha": -1.0, "beta": 2.0}],
]


@pytest.mark.parametrize("shape, dtype, attrs", RUNS)
def test_runs_as_onnxruntime(shape, dtype, attrs):
    tol = 1e-2 if dtype == "f16" else 1e-5
    assert contrib_ops.check_against_onnxruntime(
        OP, [random_array(shape, dtype)], attrs, domain="", opset=OPSET, rtol=tol,
        atol=tol) is not None


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), max_size=4),
       st.sampled_from(["f16", "f32", "f32", "f64", "i32"]),
       st.sampled_from([None, None, None, "alpha", "beta"]), NUMBER, NUMBER)
def test_matches_onnxruntime(shape, dtype, drop, alpha, beta):
    attrs = {k: v for k, v in {"alpha": alpha, "beta": beta}.items() if k != drop}
    tol = 1e-2 if dtype == "f16" else 1e-5
    # f64: the schema allows it, onnxruntime's CPU provider has no kernel for it
    contrib_ops.check_against_onnxruntime(OP, [random_array(shape, dtype)], attrs,
                                          domain="", opset=OPSET, rtol=tol, atol=tol,
                                          ort_fails_ok=dtype == "f64")
