"""NGramHashMapping (com.microsoft): rules/NGramHashMapping.lp on data cases, and the rules
and the kernel against onnxruntime (history, head offsets, eos resets, segments)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

A = {"max_ngram_size": 3, "n_head_per_ngram": 4, "pad_id": 2}  # H = 8 heads, 2 of history
I32, I64 = ("i32", "[b, s]"), ("i64", "[b, s]")


def i32(*v):
    return np.array(v, np.int32)


def ids(shape, d="i32"):
    return (d, shape)


CASES = {
    "the hashes and the history": (
        {"inputs": [I64, ids("M", "i64"), ids("V", "i64")], "attrs": A, "n_outputs": 2},
        {"y0": "[b, s, 8]", "y1": "[b, 2]", "x2": "[8]", "dtypes": {"y0": "i64", "y1": "i64"}}),
    "every optional input": (
        {"inputs": [I32, ids("M"), ids("V"), ids("P"), ids("O"), ids("E"), ids("G")],
         "attrs": {**A, "reset_on_eos": 1}, "n_outputs": 2},
        {"x3": "[b, 2]", "x4": "[8]", "x5": "[]", "x6": "[b, s]", "y1": "[b, 2]",
         "dtypes": {"x6": "i32", "x5": "i32"}}),
    "more multipliers than the order": (
        {"inputs": [I32, ids("[5]"), ids("V")], "attrs": A}, {"y0": "[b, s, 8]"}),
    "backward: the batch from the history": (
        {"inputs": [ids("X"), ids("M"), ids("V"), ids("[4, 2]")], "attrs": A},
        {"x0": "[4, _1]", "y0": "[4, _1, 8]"}),
    "int64 ids, int32 multipliers": (
        {"inputs": [I64, ids("M"), ids("V", "i64")], "attrs": A}, "error"),
    "float ids": ({"inputs": [("f32", "[b, s]"), ("f32", "M"), ("f32", "V")], "attrs": A},
                  "error"),
    "ids a vector": ({"inputs": [ids("[s]"), ids("M"), ids("V")], "attrs": A}, "error"),
    "too few multipliers": ({"inputs": [I32, ids("[2]"), ids("V")], "attrs": A}, "error"),
    "vocab_sizes of another length": ({"inputs": [I32, ids("M"), ids("[6]")], "attrs": A},
                                      "error"),
    "a zero vocabulary size": ({"inputs": [I32, ids("M"), i32(3, 0, 5, 5, 5, 5, 5, 5)],
                                "attrs": A}, "error"),
    "a negative head offset": ({"inputs": [I32, ids("M"), ids("V"), None,
                                           i32(0, 1, 2, -3, 4, 5, 6, 7)], "attrs": A},
                               "error"),
    "past of another width": ({"inputs": [I32, ids("M"), ids("V"), ids("[b, 3]")],
                               "attrs": A}, "error"),
    "eos a [1]": ({"inputs": [I32, ids("M"), ids("V"), None, None, ids("[1]")], "attrs": A},
                  "error"),
    "int64 segment ids": ({"inputs": [I32, ids("M"), ids("V"), None, None, None,
                                      ids("[b, s]", "i64")], "attrs": A}, "error"),
    "segment ids of another shape": ({"inputs": [ids("[b, 4]"), ids("M"), ids("V"), None, None,
                                                 None, ids("[b, 3]")], "attrs": A}, "error"),
    "max_ngram_size 1": ({"inputs": [I32, ids("M"), ids("V")],
                          "attrs": {**A, "max_ngram_size": 1}}, "error"),
    "no head": ({"inputs": [I32, ids("M"), ids("V")], "attrs": {**A, "n_head_per_ngram": 0}},
                "error"),
    "no pad_id": ({"inputs": [I32, ids("M"), ids("V")],
                   "attrs": {"max_ngram_size": 3, "n_head_per_ngram": 4}}, "error"),
    "a pad_id beyond int32": ({"inputs": [I32, ids("M"), ids("V")],
                               "attrs": {**A, "pad_id": 2**31}}, "error"),
    "... which int64 holds": ({"inputs": [I64, ids("M", "i64"), ids("V", "i64")],
                               "attrs": {**A, "pad_id": 2**31}}, {"y0": "[b, s, 8]"}),
    "three outputs": ({"inputs": [I32, ids("M"), ids("V")], "attrs": A, "n_outputs": 3},
                      "error"),
}


test_case = case_test("NGramHashMapping", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(0, 3), s=st.integers(0, 5),
       order=st.integers(2, 4), heads=st.integers(1, 2), extra=st.sampled_from([0, 0, 1, -1]),
       big=st.booleans(), dtype=st.sampled_from([np.int32, np.int64]),
       optional=st.lists(st.booleans(), min_size=4, max_size=4), reset=st.integers(0, 1))
def test_matches_onnxruntime(seed, b, s, order, heads, extra, big, dtype, optional, reset):
    """extra: one multiplier more (read up to max_ngram_size) or one fewer (rejected);
    optional: past_ids, head_offsets, eos_token_id, segment_ids (in few values, so that
    eos ids and segment changes occur)."""
    rng = np.random.default_rng(seed)
    hi = 2**30 if big else 6
    h = (order - 1) * heads
    arrays = [rng.integers(0, hi, (b, s)).astype(dtype),
              rng.integers(-hi, hi, order + extra).astype(dtype),
              rng.integers(1, 50, h).astype(dtype),
              rng.integers(0, hi, (b, order - 1)).astype(dtype),
              rng.integers(0, 2**20, h).astype(dtype), np.array(rng.integers(0, 6), dtype),
              rng.integers(0, 2, (b, s)).astype(np.int32)]
    arrays = [a if k < 3 or optional[k - 3] else None for k, a in enumerate(arrays)]
    while arrays[-1] is None:
        arrays.pop()
    attrs = {"max_ngram_size": order, "n_head_per_ngram": heads,
             "pad_id": int(rng.integers(0, 6)), "reset_on_eos": reset}
    got = check_against_onnxruntime("NGramHashMapping", arrays, attrs, 2, rtol=0, atol=0)
    assert (got is None) == (extra < 0)
