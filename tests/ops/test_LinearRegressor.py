"""LinearRegressor (ai.onnx.ml 1): rules/LinearRegressor.lp on data cases; the rule and our
kernel against onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel


def lr(inputs, **attrs):
    return {"inputs": inputs, "attrs": {"coefficients": [1.0, 2.0, 3.0, 4.0], **attrs},
            "domain": ML}


CASES = {
    "one target": (lr(["[n, 4]"]), {"y0": "[n, 1]", "dtypes": {"y0": "f32"}}),
    "two targets": (lr([("f64", "[n, 2]")], targets=2, intercepts=[1.0, 2.0]),
                    {"y0": "[n, 2]", "dtypes": {"y0": "f32"}}),
    "symbolic features": (lr(["[n, f]"], targets=2), {"y0": "[n, 2]"}),
    "a 1-D X is one row": (lr([("i64", "[4]")]), {"y0": "[1, 1]"}),
    "the rows back from Y": ({**lr(["[m, 4]"]), "outputs": {"y0": {"shape": "[5, 1]"}}},
                             {"x0": "[5, 4]"}),
    # errors
    "too few coefficients": (lr(["[n, 3]"], targets=2), "error"),
    "no coefficients": ({"inputs": ["[n, 2]"], "attrs": {"targets": 1}, "domain": ML}, "error"),
    "targets 0": (lr(["[n, 2]"], targets=0), "error"),
    "rank 3 X": (lr(["[n, 2, 2]"]), "error"),
    "scalar X": (lr(["[]"]), "error"),
    "an unknown post_transform": (lr(["[n, 4]"], post_transform="TANH"), "error"),
}

test_case = case_test("LinearRegressor", CASES)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 4), f=st.integers(1, 3),
       targets=st.integers(1, 3), extra=st.integers(-1, 2), rank1=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float32, np.float64, np.int64]),
       post=st.sampled_from(["NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"]),
       intercepts=st.sampled_from([0, 1, "targets"]))
def test_matches_onnxruntime(seed, n, f, targets, extra, rank1, dtype, post, intercepts):
    """(onnxruntime runs float X only: the other types are its CPU provider's gap)"""
    rng = np.random.default_rng(seed)
    coef = rng.standard_normal(max(1, targets * f + extra)).round(2)
    attrs = {"coefficients": coef.tolist(), "targets": targets, "post_transform": post}
    count = targets if intercepts == "targets" else intercepts
    if count:
        attrs["intercepts"] = rng.standard_normal(count).round(2).tolist()
    x = rng.standard_normal((n, f)).astype(dtype)
    x = x[0] if rank1 else x
    check_ml("LinearRegressor", [x], attrs, 1, rtol=1e-4, atol=1e-5, ort_fails_ok=True)


def test_against_reference():
    x = np.array([[0.0, 1.0], [2.0, -3.0]], np.float32)
    attrs = {"coefficients": [1.0, 2.0, 3.0, 4.0], "intercepts": [0.5, -0.5], "targets": 2,
             "post_transform": "NONE"}
    (got,) = run_kernel("LinearRegressor", [x], attrs)
    (want,) = reference_outputs("LinearRegressor", [x], attrs, domain=ML)
    np.testing.assert_allclose(got, want, rtol=1e-6)
