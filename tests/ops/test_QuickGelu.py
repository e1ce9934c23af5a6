"""QuickGelu (com.microsoft): rules/QuickGelu.lp on data cases, and against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar, f16": ({"inputs": [("f16", "[]")]}, {"y0": "[]", "dtypes": {"y0": "f16"}}),
    "backward from the output": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "integer elements": ({"inputs": [("i32", "[3]")]}, "error"),
    "two inputs": ({"inputs": ["[3]", "[3]"]}, "error"),
}


test_case = case_test("QuickGelu", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), max_size=4),
       dtype=st.sampled_from([np.float32, np.float16, np.float64]),
       alpha=st.sampled_from([None, 1.0, -0.5, 1.702]))
def test_matches_onnxruntime(seed, shape, dtype, alpha):
    x = (np.random.default_rng(seed).standard_normal(shape) * 4).astype(dtype)
    attrs = {} if alpha is None else {"alpha": alpha}
    tol = 2e-3 if dtype == np.float16 else 1e-5
    assert check_against_onnxruntime("QuickGelu", [x], attrs, rtol=tol, atol=tol) is not None
