"""BifurcationDetector (com.microsoft): rules on data cases (the merged tokens' length
depends on the data; the predictions' length on prev_suffix_match_idx), and the kernel
against onnxruntime."""

import numpy as np
import pytest

from shape_logic.kernels import load_kernel
from tests.contrib_ops import MS, check_against_onnxruntime, check_contrib_case, \
    onnxruntime_verdict, ort_contrib

V = ("i64", "[s]")


def idx(v, shape=()):
    return np.full(shape, v, np.int64)


CASES = {
    "no predictions: the current tokens": ([V, ("i64", "[c]"), ("i64", "[]")], {}, 2,
                                           {"y0": "[c]", "y1": "[]"}),
    "predictions: a length decided by the data": (
        [V, ("i64", "[c]"), ("i64", "[1]"), ("i64", "[q]")], {}, 2,
        {"y0": "[_]", "y1": "[1]"}),
    "a known index: the predictions' length": (
        [("i64", "[10]"), ("i64", "[c]"), idx(4), ("i64", "[q]")], {}, 2,
        {"x3": "[7]", "y0": "[_]"}),
    "a symbolic source: src - prev + 1 predictions": (
        [V, ("i64", "[c]"), idx(2), ("i64", "[?]")], {}, 2, {"x3": "[s - 1]"}),
    "predictions of the wrong length": (
        [("i64", "[10]"), ("i64", "[c]"), idx(4), ("i64", "[6]")], {}, 2, "error"),
    "an index past the source": (
        [("i64", "[10]"), ("i64", "[c]"), idx(11), ("i64", "[q]")], {}, 2, "error"),
    "a matrix of tokens": ([("i64", "[2, s]"), ("i64", "[c]"), ("i64", "[]")], {}, 2,
                           "error"),
    "int32 tokens": ([("i32", "[s]"), ("i32", "[c]"), ("i32", "[]")], {}, 2, "error"),
    "min above max": ([V, ("i64", "[c]"), ("i64", "[]")],
                      {"min_ngram_size": 3, "max_ngram_size": 2}, 2, "error"),
    "a zero n-gram size": ([V, ("i64", "[c]"), ("i64", "[]")], {"min_ngram_size": 0}, 2,
                           "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, attrs, n_out, want = CASES[name]
    check_contrib_case("BifurcationDetector", inputs, attrs, n_out, want)


def a(*v):
    return np.array(v, np.int64)


SRC = a(5, 1, 2, 3, 4, 1, 2, 7, 8, 9)
ORT_CASES = {
    "no predictions, a unique trigram": ([SRC, a(0, 3, 4, 1), idx(0), None], {}),
    "no predictions, a repeated bigram": ([SRC, a(9, 1, 2), idx(0), None], {}),
    "no predictions, index as a vector": ([SRC, a(7, 8), idx(0, (1,)), None], {}),
    "a match at the very end": ([SRC, a(8, 9), idx(0), None], {}),
}
PRED_CASES = {
    "predictions that leave the source at once": (
        [SRC, a(3, 4), idx(5), a(0, 0, 0, 0, 0, 0)], {}),
    "predictions that follow the source a while": (
        [SRC, a(3, 4), idx(5), a(1, 2, 7, 6, 0, 0)], {}),
    "predictions that follow it to the end": (
        [SRC, a(4), idx(5), a(1, 2, 7, 8, 9, 6)], {}),
    "predictions from the start, n-grams 2..4": (
        [SRC, a(6), idx(0), a(5, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0)],
        {"min_ngram_size": 2, "max_ngram_size": 4}),
}


@pytest.mark.parametrize("name", ORT_CASES)
def test_kernel_and_shapes_match_onnxruntime(name):
    arrays, attrs = ORT_CASES[name]
    check_against_onnxruntime("BifurcationDetector", arrays, attrs, n_outputs=2, const=(2,))


@pytest.mark.parametrize("name", PRED_CASES)
def test_kernel_with_predictions_matches_onnxruntime(name):
    # the merged length depends on the tokens' values: the rules give a fresh name, at
    # most cur + pred; the kernel gives onnxruntime's tokens
    arrays, attrs = PRED_CASES[name]
    want = ort_contrib("BifurcationDetector", arrays, attrs, n_outputs=2)
    got = load_kernel("BifurcationDetector")(attrs, n_outputs=2, domain=MS)(*arrays)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    src, cur, prev, pred = arrays
    shapes = [("i64", list(src.shape)), ("i64", list(cur.shape)), prev, ("i64", "[?]")]
    check_contrib_case("BifurcationDetector", shapes, attrs, 2,
                       {"y0": "[_]", "x3": f"[{len(pred)}]", "y1": "[]"})


@pytest.mark.parametrize("prev, n_pred", [(4, 5), (11, 0)])
def test_onnxruntime_rejects_what_the_rules_reject(prev, n_pred):
    arrays = [SRC, a(1), idx(prev), np.zeros(n_pred, np.int64)]
    assert onnxruntime_verdict("BifurcationDetector", arrays, n_outputs=2) == "rejected"
    check_contrib_case("BifurcationDetector", [("i64", "[10]"), ("i64", "[1]"), idx(prev),
                                               ("i64", f"[{n_pred}]")], {}, 2, "error")
