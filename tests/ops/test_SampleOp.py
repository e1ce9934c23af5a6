"""SampleOp (com.microsoft): rules/SampleOp.lp on data cases, and the rules and the kernel
against onnxruntime (any rank, float32 and float16; the other schema types have no kernel)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "the input's shape": ({"inputs": ["[b, s, 4]"]}, {"y0": "[b, s, 4]"}),
    "a scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "float16": ({"inputs": [("f16", "[n]")]}, {"y0": "[n]", "dtypes": {"y0": "f16"}}),
    "backward from the output": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[2, h]"}}},
                                 {"x0": "[2, h]"}),
    "the values of a constant": ({"inputs": [np.array([3.0, 4.0], np.float32)]}, {"y0": "[2]"}),
    "float64 (no kernel)": ({"inputs": [("f64", "[n]")]}, "error"),
    "int64 (no kernel)": ({"inputs": [("i64", "[n]")]}, "error"),
    "bool": ({"inputs": [("bool", "[n]")]}, "error"),
    "two outputs": ({"inputs": ["[n]"], "n_outputs": 2}, "error"),
    "two inputs": ({"inputs": ["[n]", "[n]"]}, "error"),
}


test_case = case_test("SampleOp", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(0, 3), max_size=4),
       dtype=st.sampled_from([np.float32, np.float16, np.float64, np.int32]))
def test_matches_onnxruntime(seed, shape, dtype):
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    got = check_against_onnxruntime("SampleOp", [x], {}, 1, rtol=0, atol=0)
    assert (got is None) == (dtype not in (np.float32, np.float16))
