"""CDist (com.microsoft): rules/CDist.lp on data cases, and the rules and the kernel against
onnxruntime on random matrices."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "symbolic rows": ({"inputs": ["[m, k]", "[n, k]"]}, {"y0": "[m, n]"}),
    "B's length from A's": ({"inputs": ["[m, 16]", "B"]}, {"x1": "[_1, 16]", "y0": "[m, _1]"}),
    "euclidean": ({"inputs": ["[m, k]", "[n, k]"], "attrs": {"metric": "euclidean"}},
                  {"y0": "[m, n]"}),
    "f64": ({"inputs": [("f64", "[m, 3]"), ("f64", "[n, 3]")]},
            {"y0": "[m, n]", "dtypes": {"y0": "f64"}}),
    "backward: the rows from the output": (
        {"inputs": ["A", "B"], "outputs": {"y0": {"shape": "[3, 5]"}}},
        {"x0": "[3, _1]", "x1": "[5, _1]"}),
    "no rows in A": ({"inputs": ["[0, 4]", "[n, 4]"]}, {"y0": "[0, n]"}),
    "rows of different lengths": ({"inputs": ["[m, 4]", "[n, 3]"]}, "error"),
    "rows of no element": ({"inputs": ["[m, 0]", "[n, 0]"]}, "error"),
    "a 3-D A": ({"inputs": ["[2, m, 4]", "[n, 4]"]}, "error"),
    "a vector B": ({"inputs": ["[m, 4]", "[4]"]}, "error"),
    "a metric onnxruntime does not compute": (
        {"inputs": ["[m, 4]", "[n, 4]"], "attrs": {"metric": "cosine"}}, "error"),
    "an unknown metric": ({"inputs": ["[m, 4]", "[n, 4]"], "attrs": {"metric": "foo"}},
                          "error"),
    "f16": ({"inputs": [("f16", "[m, 4]"), ("f16", "[n, 4]")]}, "error"),
    "two types": ({"inputs": [("f32", "[m, 4]"), ("f64", "[n, 4]")]}, "error"),
}


test_case = case_test("CDist", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(0, 5), n=st.integers(0, 5),
       k=st.integers(1, 12), kb=st.sampled_from([None, None, None, 0, 1]),
       metric=st.sampled_from([None, "sqeuclidean", "euclidean"]),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_matches_onnxruntime(seed, m, n, k, kb, metric, dtype):
    """Rows of 1 to 12 elements (onnxruntime's Eigen path from 8 on); B's rows sometimes of
    another length (rejected), or of none."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((n, k if kb is None else kb)).astype(dtype)
    attrs = {} if metric is None else {"metric": metric}
    check_against_onnxruntime("CDist", [a, b], attrs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shapes, attrs", [
    (((3, 4), (5, 3)), {}), (((3, 0), (5, 0)), {}), (((2, 3, 4), (5, 4)), {}),
    (((3, 4), (4,)), {}), (((3, 4), (5, 4)), {"metric": "cityblock"}),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, attrs):
    arrays = [np.ones(s, np.float32) for s in shapes]
    assert check_against_onnxruntime("CDist", arrays, attrs) is None
