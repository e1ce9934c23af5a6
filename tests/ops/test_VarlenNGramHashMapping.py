"""VarlenNGramHashMapping (com.microsoft): rules/VarlenNGramHashMapping.lp (with
NGramHashMapping.lp's) on data cases, and the rules and the kernel against onnxruntime
(packed requests, history, eos resets, segments and their history, state capture)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OP = "VarlenNGramHashMapping"
A = {"max_ngram_size": 3, "n_head_per_ngram": 4, "pad_id": 2}  # H = 8 heads, 2 of history
CAP = {**A, "state_update_capacity": 3}


def ids(shape, d="i64"):
    return (d, shape)


def i32(*v):
    return np.array(v, np.int32)


T, M, V, CU, S = ids("[t]"), ids("M"), ids("V"), ids("[n]", "i32"), ids("G", "i32")

CASES = {
    "the hashes and the requests' history": (
        {"inputs": [T, M, V, CU], "attrs": A, "n_outputs": 2},
        {"y0": "[t, 8]", "y1": "[n - 1, 2]", "dtypes": {"y0": "i64", "y1": "i64"}}),
    "every input and output": (
        {"inputs": [T, M, V, CU, ids("P"), ids("O"), ids("E"), S, ids("PS", "i32"),
                    ids("C", "i32")], "attrs": CAP, "n_outputs": 4},
        {"x4": "[n - 1, 2]", "x5": "[8]", "x6": "[]", "x7": "[t]", "x8": "[n - 1, 2]",
         "x9": "[n - 1]", "y2": "[n - 1, 2]", "y3": "[n - 1, 3, 2]",
         "dtypes": {"y2": "i32", "y3": "i64", "x9": "i32"}}),
    "no capacity: an empty state_update": (
        {"inputs": [T, M, V, CU, None, None, None, S], "attrs": A, "n_outputs": 4},
        {"y3": "[n - 1, 0, 2]"}),
    "the offsets from the history": (
        {"inputs": [T, M, V, ids("Cu", "i32"), ids("[b, 2]")], "attrs": A},
        {"x3": "[b + 1]"}),
    "known offsets": ({"inputs": [ids("[5]"), M, V, i32(0, 2, 5)], "attrs": A, "n_outputs": 2},
                      {"y0": "[5, 8]", "y1": "[2, 2]"}),
    "int64 offsets": ({"inputs": [T, M, V, ids("[n]")], "attrs": A}, "error"),
    "ids a matrix": ({"inputs": [ids("[1, t]"), M, V, CU], "attrs": A}, "error"),
    "offsets of one entry": ({"inputs": [T, M, V, ids("[1]", "i32")], "attrs": A}, "error"),
    "fewer tokens than requests": ({"inputs": [ids("[2]"), M, V, ids("[4]", "i32")],
                                    "attrs": A}, "error"),
    "offsets not from 0": ({"inputs": [ids("[5]"), M, V, i32(1, 2, 5)], "attrs": A}, "error"),
    "offsets not up to the tokens": ({"inputs": [ids("[5]"), M, V, i32(0, 2, 4)], "attrs": A},
                                     "error"),
    "an empty request": ({"inputs": [ids("[5]"), M, V, i32(0, 0, 5)], "attrs": A}, "error"),
    "too few multipliers": ({"inputs": [T, ids("[2]"), V, CU], "attrs": A}, "error"),
    "segment ids of another length": ({"inputs": [ids("[5]"), M, V, CU, None, None, None,
                                                  ids("[4]", "i32")], "attrs": A}, "error"),
    "past segment ids without segment ids": (
        {"inputs": [T, M, V, CU, None, None, None, None, ids("PS", "i32")], "attrs": A},
        "error"),
    "present segment ids without segment ids": ({"inputs": [T, M, V, CU], "attrs": A,
                                                 "n_outputs": 3}, "error"),
    "a capacity without capture_count": ({"inputs": [T, M, V, CU], "attrs": CAP}, "error"),
    "capture_count without a capacity": ({"inputs": [T, M, V, CU] + [None] * 5 +
                                          [ids("C", "i32")], "attrs": A}, "error"),
    "a capacity of 9": ({"inputs": [T, M, V, CU] + [None] * 5 + [ids("C", "i32")],
                         "attrs": {**A, "state_update_capacity": 9}}, "error"),
    "capture_count of another batch": ({"inputs": [T, M, V, ids("[3]", "i32")] + [None] * 5 +
                                        [ids("[3]", "i32")], "attrs": CAP}, "error"),
    "five outputs": ({"inputs": [T, M, V, CU, None, None, None, S], "attrs": A,
                      "n_outputs": 5}, "error"),
}


test_case = case_test(OP, CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lengths=st.lists(st.integers(1, 4), min_size=1,
                                                         max_size=3),
       order=st.integers(2, 4), heads=st.integers(1, 2), big=st.booleans(),
       dtype=st.sampled_from([np.int32, np.int64]), cap=st.sampled_from([0, 0, 1, 3, 8]),
       optional=st.lists(st.booleans(), min_size=5, max_size=5), reset=st.integers(0, 1),
       cu_bad=st.sampled_from([False, False, False, True]))
def test_matches_onnxruntime(seed, lengths, order, heads, big, dtype, cap, optional, reset,
                             cu_bad):
    """optional: past_ids, head_offsets (any: they wrap), eos_token_id, segment_ids,
    past_segment_ids (in few values: eos ids and segment changes occur); the offsets a
    constant the rules read, not rising where cu_bad (rejected)."""
    rng = np.random.default_rng(seed)
    hi = 2**30 if big else 6
    h, b = (order - 1) * heads, len(lengths)
    cu = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    if cu_bad and b > 1:
        cu[1] = cu[2]
    t = int(cu[-1])
    info = np.iinfo(dtype)
    segs = optional[3]
    arrays = [rng.integers(0, hi, t).astype(dtype),
              rng.integers(-hi, hi, order).astype(dtype), rng.integers(1, 50, h).astype(dtype),
              cu, rng.integers(0, hi, (b, order - 1)).astype(dtype),
              rng.choice([-1, 3, info.max, info.min], h).astype(dtype),
              np.array(rng.integers(0, 6), dtype), rng.integers(0, 2, t).astype(np.int32),
              rng.integers(0, 2, (b, order - 1)).astype(np.int32),
              rng.integers(-1, 6, b).astype(np.int32)]
    keep = [True] * 4 + optional[:4] + [segs and optional[4], cap > 0]
    arrays = [a if k else None for a, k in zip(arrays, keep)]
    while arrays[-1] is None:
        arrays.pop()
    attrs = {"max_ngram_size": order, "n_head_per_ngram": heads, "reset_on_eos": reset,
             "pad_id": int(rng.integers(0, 6)), "state_update_capacity": cap}
    got = check_against_onnxruntime(OP, arrays, attrs, 4 if segs else 2, const=(3,),
                                    rtol=0, atol=0)
    assert (got is None) == (cu_bad and b > 1)
