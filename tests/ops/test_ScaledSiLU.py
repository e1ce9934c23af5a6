"""ScaledSiLU (com.microsoft): rules/ScaledSiLU.lp on data cases, and the rules and the
kernel against onnxruntime (the scale from alpha or from the scalar input)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "a scale input, of another float type": (
        {"inputs": [("f16", "[b, 4]"), ("f32", "[]")]}, {"y0": "[b, 4]", "dtypes": {"y0": "f16"}}),
    "the scale is a scalar": ({"inputs": ["[b, 4]", "S"]}, {"x1": "[]"}),
    "scalar, bf16": ({"inputs": [("bf16", "[]")]}, {"y0": "[]", "dtypes": {"y0": "bf16"}}),
    "backward from the output": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "a scale of one element, but a vector": ({"inputs": ["[3]", "[1]"]}, "error"),
    "integer elements": ({"inputs": [("i32", "[3]")]}, "error"),
    "double elements": ({"inputs": [("f64", "[3]")]}, "error"),
    "an integer scale": ({"inputs": ["[3]", ("i32", "[]")]}, "error"),
    "three inputs": ({"inputs": ["[3]", "[]", "[]"]}, "error"),
}


test_case = case_test("ScaledSiLU", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), max_size=4),
       dtype=st.sampled_from([np.float32, np.float16]),
       scale=st.sampled_from([None, "alpha", np.float32, np.float16]),
       value=st.sampled_from([1.0, -0.5, 1.702, 3.0]))
def test_matches_onnxruntime(seed, shape, dtype, scale, value):
    x = (np.random.default_rng(seed).standard_normal(shape) * 4).astype(dtype)
    arrays, attrs = [x], {}
    if scale == "alpha":
        attrs = {"alpha": value}
    elif scale is not None:  # (the input overrides alpha)
        arrays.append(np.array(value, scale))
        attrs = {"alpha": 5.0}
    tol = 1e-3 if dtype == np.float16 else 1e-5  # (each step rounded, as onnxruntime does)
    assert check_against_onnxruntime("ScaledSiLU", arrays, attrs, rtol=tol,
                                     atol=tol) is not None


@pytest.mark.parametrize("scale", [[2.0], [[2.0]], [2.0, 3.0], []])
def test_onnxruntime_rejects_a_scale_not_a_scalar(scale):
    x = np.ones((2, 3), np.float32)
    assert check_against_onnxruntime("ScaledSiLU", [x, np.array(scale, np.float32)]) is None


def test_float16_rounds_each_step_as_onnxruntime():
    # every float16 from -12 to 12 in steps of 1/64: the same bits as onnxruntime's
    from shape_logic.kernels import load_kernel
    from tests.contrib_ops import ort_contrib

    x = np.arange(-768, 769, dtype=np.float32).astype(np.float16) / np.float16(64)
    scale = np.array(1.3, np.float16)
    want, = ort_contrib("ScaledSiLU", [x, scale])
    got, = load_kernel("ScaledSiLU")({}, domain=MS)(x, scale)
    assert got.dtype == np.float16 and np.array_equal(got, want)
