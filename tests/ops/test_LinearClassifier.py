"""LinearClassifier (ai.onnx.ml 1): rules/LinearClassifier.lp on data cases; the rule and
our kernel against onnxruntime (shapes, types, values: its binary rules included) and
against onnx's reference (several classes)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel

THREE = {"coefficients": [0.5, -1.0, 0.25, 1.0, 0.0, -0.5], "intercepts": [0.1, 0.2, 0.3],
         "classlabels_ints": [4, 5, 6]}


def lc(inputs, drop=(), **attrs):
    given = {k: v for k, v in {**THREE, **attrs}.items() if k not in drop}
    return {"inputs": inputs, "attrs": given, "domain": ML, "n_outputs": 2}


BINARY = {"coefficients": [0.5, -1.0], "intercepts": [0.1]}
CASES = {
    "rows and classes": (lc(["[n, 2]"]), {"y0": "[n]", "y1": "[n, 3]",
                                         "dtypes": {"y0": "i64", "y1": "f32"}}),
    "symbolic features": (lc(["[n, f]"]), {"y0": "[n]", "y1": "[n, 3]"}),
    "binary: two columns": (lc([("f64", "[n, 2]")], drop=["classlabels_ints"], **BINARY,
                               classlabels_strings=["no", "yes"]),
                            {"y1": "[n, 2]", "dtypes": {"y0": "str"}}),
    "more labels than classes": (lc(["[n, 2]"], classlabels_ints=[1, 2, 3, 4]),
                                 {"y1": "[n, 3]"}),
    "a 1-D X is one row": (lc([("i32", "[2]")]), {"y0": "[1]", "y1": "[1, 3]"}),
    "more coefficients than read": (lc(["[n, 1]"]), {"y1": "[n, 3]"}),
    # errors
    "no labels": (lc(["[n, 2]"], drop=["classlabels_ints"]), "error"),
    "both label lists": (lc(["[n, 2]"], classlabels_strings=["a", "b", "c"]), "error"),
    "no intercepts": (lc(["[n, 2]"], drop=["intercepts"]), "error"),
    "fewer labels than classes": (lc(["[n, 2]"], classlabels_ints=[1, 2]), "error"),
    "binary with three labels": (lc(["[n, 2]"], **BINARY), "error"),
    "too few coefficients": (lc(["[n, 3]"]), "error"),
    "coefficients not a multiple of the classes": (lc(["[n, 2]"], coefficients=[1.0] * 7),
                                                   "error"),
    "rank 3 X": (lc(["[n, 2, 1]"]), "error"),
    "scalar X": (lc(["[]"]), "error"),
    "string X": (lc([("str", "[n, 2]")]), "error"),
    "an unknown post_transform": (lc(["[n, 2]"], post_transform="RELU"), "error"),
}

test_case = case_test("LinearClassifier", CASES)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 4), f=st.integers(1, 3),
       classes=st.integers(1, 4), extra=st.integers(0, 2), rank1=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float64, np.int64, np.int32]),
       post=st.sampled_from(["NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"]),
       strings=st.booleans(), labels=st.integers(1, 5), short=st.booleans())
def test_matches_onnxruntime(seed, n, f, classes, extra, rank1, dtype, post, strings,
                             labels, short):
    rng = np.random.default_rng(seed)
    coef = rng.standard_normal(classes * f + extra).round(2)
    if short:
        coef = coef[: max(1, classes * f - 1)]
    names = [f"c{k}" for k in range(labels)] if strings else list(range(10, 10 + labels))
    attrs = {"coefficients": coef.tolist(),
             "intercepts": rng.standard_normal(classes).round(2).tolist(),
             "classlabels_strings" if strings else "classlabels_ints": names,
             "post_transform": post}
    x = (rng.standard_normal((n, f)) * 3).astype(dtype)
    x = x[0] if rank1 else x
    # (a binary PROBIT is unspecified: onnxruntime writes NaN)
    compare = (0,) if classes == 1 and post == "PROBIT" else None
    check_ml("LinearClassifier", [x], attrs, 2, rtol=1e-4, atol=1e-5, compare=compare)


def test_against_reference():
    x = np.array([[0.0, 1.0], [2.0, -3.0], [1.0, 0.5]], np.float32)
    for post in ("NONE", "SOFTMAX", "LOGISTIC"):
        attrs = {**THREE, "post_transform": post}
        y, z = run_kernel("LinearClassifier", [x], attrs, 2)
        want_y, want_z = reference_outputs("LinearClassifier", [x], attrs, 2, domain=ML)
        np.testing.assert_array_equal(y, want_y)
        np.testing.assert_allclose(z, want_z, rtol=1e-5)
