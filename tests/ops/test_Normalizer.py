"""Normalizer (ai.onnx.ml 1): rules/Normalizer.lp on data cases; the rule and our kernel
against onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel


def normalizer(inputs, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": ML}


CASES = {
    "rows": (normalizer(["[n, c]"], norm="L2"), {"y0": "[n, c]", "dtypes": {"y0": "f32"}}),
    "a 1-D X, default MAX": (normalizer([("i32", "[5]")]), {"y0": "[5]", "dtypes": {"y0": "f32"}}),
    "backward": ({**normalizer(["X"]), "outputs": {"y0": {"shape": "[4, 2]"}}}, {"x0": "[4, 2]"}),
    # errors
    "rank 3": (normalizer(["[n, c, 2]"]), "error"),
    "scalar": (normalizer(["[]"]), "error"),
    "an unknown norm": (normalizer(["[n, c]"], norm="L3"), "error"),
    "bool X": (normalizer([("bool", "[n, c]")]), "error"),
}

test_case = case_test("Normalizer", CASES)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), shape=st.lists(st.integers(1, 4), min_size=0, max_size=3),
       norm=st.sampled_from(["MAX", "L1", "L2"]), zero_row=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float64, np.int64, np.int32]))
def test_matches_onnxruntime(seed, shape, norm, zero_row, dtype):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    if zero_row and x.ndim:
        x[0] = 0
    check_ml("Normalizer", [x], {"norm": norm}, 1, rtol=1e-5, atol=1e-6)


def test_against_reference():
    x = np.array([[1.0, 2.0, 0.5], [3.0, 1.0, 4.0]], np.float32)  # (positive: as the spec)
    for norm in ("MAX", "L1", "L2"):
        (got,) = run_kernel("Normalizer", [x], {"norm": norm})
        (want,) = reference_outputs("Normalizer", [x], {"norm": norm}, domain=ML)
        np.testing.assert_allclose(got, want, rtol=1e-6)
