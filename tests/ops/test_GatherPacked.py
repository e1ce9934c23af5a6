"""GatherPacked (com.microsoft): rules/GatherPacked.lp on data cases, and the rules and the
kernel against onnxruntime (the formats the kernel decodes, out-of-range indices, row
widths one byte off)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

Q8 = {"packed_type": 8, "K": 64}  # Q8_0: 32 elements in 34 bytes
TABLE, IDX = ("u8", "D"), ("i64", "[b, s]")
CASES = {
    "Q8_0, bfloat16 (the default)": ({"inputs": [TABLE, IDX], "attrs": Q8},
                                     {"y0": "[b, s, 64]", "x0": "[_1, 68]",
                                      "dtypes": {"y0": "bf16"}}),
    "Q6_K, a scalar index, float16": ({"inputs": [TABLE, ("i32", "[]")],
                                       "attrs": {"packed_type": 14, "K": 512, "output_dtype": 10}},
                                      {"y0": "[512]", "x0": "[_1, 420]", "dtypes": {"y0": "f16"}}),
    "F32 rows": ({"inputs": [("u8", "[v, r]"), ("i32", "[n]")],
                  "attrs": {"packed_type": 0, "K": 3, "output_dtype": 1}},
                 {"y0": "[n, 3]", "x0": "[v, 12]"}),
    "backward: the indices from the output": (
        {"inputs": [TABLE, ("i64", "I")], "attrs": Q8, "outputs": {"y0": {"shape": "[2, t, 64]"}}},
        {"x1": "[2, t]"}),
    "an empty gather from an empty table": ({"inputs": [("u8", "[0, 68]"), ("i64", "[0]")],
                                             "attrs": Q8}, {"y0": "[0, 64]"}),
    # errors
    "K no multiple of the block": ({"inputs": [TABLE, IDX], "attrs": {**Q8, "K": 48}}, "error"),
    "K 0": ({"inputs": [TABLE, IDX], "attrs": {**Q8, "K": 0}}, "error"),
    "a row of other width": ({"inputs": [("u8", "[v, 64]"), IDX], "attrs": Q8}, "error"),
    "an unknown format (Q4_K)": ({"inputs": [TABLE, IDX], "attrs": {**Q8, "packed_type": 12}},
                                 "error"),
    "output_dtype double": ({"inputs": [TABLE, IDX], "attrs": {**Q8, "output_dtype": 11}},
                            "error"),
    "no K": ({"inputs": [TABLE, IDX], "attrs": {"packed_type": 8}}, "error"),
    "a 3-D table": ({"inputs": [("u8", "[v, 1, 68]"), IDX], "attrs": Q8}, "error"),
    "an int8 table": ({"inputs": [("i8", "D"), IDX], "attrs": Q8}, "error"),
    "float indices": ({"inputs": [TABLE, "[n]"], "attrs": Q8}, "error"),
    "a nonempty gather from an empty table": ({"inputs": [("u8", "[0, 68]"), ("i64", "[3]")],
                                               "attrs": Q8}, "error"),
}


test_case = case_test("GatherPacked", CASES, domain=MS)

# the formats the kernel decodes: GGML id -> (elements, bytes) per block
DECODED = {0: (1, 4), 1: (1, 2), 30: (1, 2), 2: (32, 18), 6: (32, 22), 8: (32, 34),
           20: (32, 18)}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), fmt=st.sampled_from(sorted(DECODED)),
       blocks=st.integers(1, 3), vocab=st.integers(0, 4),
       shape=st.lists(st.integers(0, 3), max_size=2), off=st.sampled_from([0, 0, 0, 1]),
       out=st.sampled_from([1, 10]), itype=st.sampled_from([np.int32, np.int64]))
def test_matches_onnxruntime(seed, fmt, blocks, vocab, shape, off, out, itype):
    """off: a row one byte too wide (rejected); indices from -2 to vocab + 1 (read as 0
    outside the table)."""
    rng = np.random.default_rng(seed)
    elems, nbytes = DECODED[fmt]
    k = elems * blocks
    table = rng.integers(0, 256, (vocab, blocks, nbytes)).astype(np.uint8)
    if elems > 1:  # a float16 scale of a sane size before each block's codes
        scales = rng.standard_normal((vocab, blocks, 1)).astype(np.float16)
        table[:, :, :2] = scales.view(np.uint8)
    elif fmt != 30:  # whole floats (not NaN)
        table = rng.standard_normal((vocab, blocks)).astype(
            np.float32 if fmt == 0 else np.float16).view(np.uint8)
    table = table.reshape(vocab, blocks * nbytes)
    table = np.concatenate([table, np.zeros((vocab, off), np.uint8)], axis=1)
    idx = rng.integers(-2, vocab + 2, shape).astype(itype)
    attrs = {"packed_type": fmt, "K": k, "output_dtype": out}
    got = check_against_onnxruntime("GatherPacked", [table, idx], attrs, 1, rtol=0, atol=0)
    assert (got is None) == bool(off or (vocab == 0 and idx.size))
