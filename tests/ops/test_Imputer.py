"""Imputer (ai.onnx.ml 1): rules/Imputer.lp on data cases; the rule and our kernel against
onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel


def imputer(inputs, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": ML}


FLOATS = {"imputed_value_floats": [5.0, 6.0], "replaced_value_float": float("nan")}
CASES = {
    "floats": (imputer(["[n, 2]"], **FLOATS), {"y0": "[n, 2]", "dtypes": {"y0": "f32"}}),
    "int64s": (imputer([("i64", "[n, c, 3]")], imputed_value_int64s=[0], replaced_value_int64=-1),
               {"y0": "[n, c, 3]", "dtypes": {"y0": "i64"}}),
    "any count": (imputer([("f64", "[7]")], imputed_value_floats=[1.0, 2.0, 3.0]),
                  {"y0": "[7]", "dtypes": {"y0": "f64"}}),
    "backward": ({**imputer(["X"], **FLOATS), "outputs": {"y0": {"shape": "[4, 2]"}}},
                 {"x0": "[4, 2]"}),
    # errors
    "no values": (imputer(["[n, 2]"]), "error"),
    "empty values": (imputer(["[n, 2]"], imputed_value_floats=[]), "error"),
    "both lists": (imputer(["[n, 2]"], imputed_value_floats=[1.0], imputed_value_int64s=[1]),
                   "error"),
    "int64s for floats": (imputer(["[n, 2]"], imputed_value_int64s=[1]), "error"),
    "floats for int32": (imputer([("i32", "[n, 2]")], imputed_value_floats=[1.0]), "error"),
    "scalar X": (imputer(["[]"], **FLOATS), "error"),
    "string X": (imputer([("str", "[n]")], **FLOATS), "error"),
}

test_case = case_test("Imputer", CASES)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), shape=st.lists(st.integers(1, 4), min_size=0, max_size=3),
       count=st.sampled_from([1, 2, 3, "features"]), nan=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float32, np.float64, np.int64, np.int32]),
       wrong=st.sampled_from([False, False, False, True]))
def test_matches_onnxruntime(seed, shape, count, nan, dtype, wrong):
    """(onnxruntime runs float and int64 X only: the others are its CPU provider's gap)"""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 3, size=shape).astype(dtype)
    k = (shape[1] if len(shape) > 1 else shape[0] if shape else 1) if count == "features" \
        else count
    floating = np.dtype(dtype).kind == "f"
    if floating:
        if nan and x.size:
            x.reshape(-1)[0] = np.nan
        attrs = {"imputed_value_floats": rng.standard_normal(k).round(2).tolist(),
                 "replaced_value_float": float("nan") if nan else 1.0}
    else:
        attrs = {"imputed_value_int64s": rng.integers(-5, 5, k).tolist(),
                 "replaced_value_int64": 1}
    if wrong:  # the other kind of values
        attrs = {"imputed_value_int64s": [1]} if floating else {"imputed_value_floats": [1.0]}
    check_ml("Imputer", [x], attrs, 1, ort_fails_ok=True)


def test_against_reference():
    x = np.array([[1.0, np.nan], [np.nan, 3.0]], np.float32)
    attrs = {"imputed_value_floats": [5.0, 6.0], "replaced_value_float": float("nan")}
    (got,) = run_kernel("Imputer", [x], attrs)
    (want,) = reference_outputs("Imputer", [x], attrs, domain=ML)
    np.testing.assert_allclose(got, want)
