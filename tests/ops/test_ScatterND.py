"""ScatterND: rules/ScatterND.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "Y is X": ({"inputs": ["[a, b, c]", ("i64", "[n, 1]"), "[n, b, c]"]},
               {"y0": "[a, b, c]"}),
    "updates from the indices and X": ({"inputs": ["[a, b, c]", ("i64", "[n, m, 2]"), "U"]},
                                       {"x2": "[n, m, c]"}),
    "KV cache write": ({"inputs": ["[b, h, t, d]", ("i64", "[b, h, s, 3]"), "[b, h, s, d]"]},
                       {"y0": "[b, h, t, d]"}),
    "updates of the wrong shape": ({"inputs": ["[a, 4]", ("i64", "[n, 1]"), "[n, 5]"]},
                                   "error"),
    "too many coordinates": ({"inputs": ["[a, b]", ("i64", "[n, 3]"), "[n]"]}, "error"),
}


test_case = case_test("ScatterND", CASES)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    k = data.draw(st.integers(1, len(shape)))
    rng = np.random.default_rng(len(shape) + k)
    n = data.draw(st.integers(1, 3))
    # distinct coordinates: the reference and the kernel then agree on the result
    flat = rng.permutation(int(np.prod(shape[:k])))[:n]
    idx = np.stack(np.unravel_index(flat, shape[:k]), axis=-1).astype(np.int64)
    upd = random_array([len(flat)] + shape[k:])
    check_against_reference("ScatterND", [random_array(shape), idx, upd])
