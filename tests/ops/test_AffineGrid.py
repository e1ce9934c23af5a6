"""AffineGrid: rules/AffineGrid.lp on data cases, and against onnx's reference on random
sizes (the kernel's values against the reference's in tests/test_conformance_exec.py's
node cases)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 20


def size(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "2-D": ({"inputs": ["[2, 2, 3]", size(2, 3, 5, 6)]}, {"y0": "[2, 5, 6, 2]"}),
    "3-D": ({"inputs": ["[n, 3, 4]", size(7, 3, 4, 5, 6)]}, {"y0": "[7, 4, 5, 6, 3]"}),
    "a graph input's size: rank and batch from theta, names of their own": (
        {"inputs": ["[n, 2, 3]", ("i64", "[4]")]}, {"y0": "[n, _c1, _c2, 2]"}),
    "backward: size's length from theta": ({"inputs": ["[n, 3, 4]", ("i64", "S")]},
                                           {"x1": "[5]"}),
    "dtype": ({"inputs": [("f64", "[1, 2, 3]"), size(1, 1, 2, 2)]},
              {"dtypes": {"y0": "f64"}}),
    # errors
    "theta does not fit size": ({"inputs": ["[2, 3, 4]", size(2, 3, 5, 6)]}, "error"),
    "batches differ": ({"inputs": ["[3, 2, 3]", size(2, 3, 5, 6)]}, "error"),
    "size of three": ({"inputs": ["[2, 2, 3]", size(2, 5, 6)]}, "error"),
    "integer theta": ({"inputs": [("i32", "[2, 2, 3]"), size(2, 3, 5, 6)]}, "error"),
}


test_case = case_test("AffineGrid", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.sampled_from([2, 3]),
       st.lists(st.integers(1, 5), min_size=3, max_size=3), st.sampled_from([0, 1]))
def test_matches_reference(n, k, dims, align):
    rng = np.random.default_rng(n * 7 + k)
    theta = rng.standard_normal((n, k, k + 1)).astype(np.float32)
    check_against_reference("AffineGrid", [theta, size(n, 3, *dims[:k])],
                            {"align_corners": align}, opset=OPSET, const=[1])
