"""Scaler (ai.onnx.ml 1): rules/Scaler.lp on data cases; the rule and our kernel against
onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel


def scaler(inputs, **attrs):
    return {"inputs": inputs, "attrs": {"offset": [1.0, 2.0], "scale": [2.0, 0.5], **attrs},
            "domain": ML}


CASES = {
    "per feature": (scaler(["[n, 2]"]), {"y0": "[n, 2]", "dtypes": {"y0": "f32"}}),
    "one for all": (scaler([("i64", "[n, f, 3]")], offset=[1.0], scale=[2.0]),
                    {"y0": "[n, f, 3]", "dtypes": {"y0": "f32"}}),
    "a 1-D X": (scaler([("f64", "[2]")]), {"y0": "[2]"}),
    "features of rank 3": (scaler(["[n, 2, 5]"]), {"y0": "[n, 2, 5]"}),
    "symbolic features": (scaler(["[n, c]"]), {"y0": "[n, c]"}),
    "backward": ({**scaler(["X"]), "outputs": {"y0": {"shape": "[4, 2]"}}}, {"x0": "[4, 2]"}),
    # errors
    "a count that is not the features'": (scaler(["[n, 3]"]), "error"),
    "offset and scale differ": (scaler(["[n, 2]"], offset=[1.0]), "error"),
    "no offset": ({"inputs": ["[n, 1]"], "attrs": {"scale": [2.0]}, "domain": ML}, "error"),
    "no scale": ({"inputs": ["[n, 1]"], "attrs": {}, "domain": ML}, "error"),
    "scalar X": (scaler(["[]"], offset=[1.0], scale=[2.0]), "error"),
    "string X": (scaler([("str", "[n, 2]")]), "error"),
}

test_case = case_test("Scaler", CASES)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
       count=st.sampled_from([1, "features", 3]),
       dtype=st.sampled_from([np.float32, np.float64, np.int64, np.int32]))
def test_matches_onnxruntime(seed, shape, count, dtype):
    rng = np.random.default_rng(seed)
    features = shape[1] if len(shape) > 1 else shape[0]
    k = features if count == "features" else count
    attrs = {"offset": rng.standard_normal(k).round(2).tolist(),
             "scale": rng.standard_normal(k).round(2).tolist()}
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    check_ml("Scaler", [x], attrs, 1, rtol=1e-5, atol=1e-5)


def test_against_reference():
    x = np.array([[0.0, 1.0], [2.0, -3.0]], np.float32)
    attrs = {"offset": [1.0, 2.0], "scale": [2.0, 0.5]}
    (got,) = run_kernel("Scaler", [x], attrs)
    (want,) = reference_outputs("Scaler", [x], attrs, domain=ML)
    np.testing.assert_allclose(got, want, rtol=1e-6)
