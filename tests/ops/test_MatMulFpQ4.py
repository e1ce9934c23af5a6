"""MatMulFpQ4 (com.microsoft): rules/MatMulFpQ4.lp on data cases, and the rules and the
kernel against onnxruntime on random packed weights (MLAS's blob layout, x86-64)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, ms_case

OP = "MatMulFpQ4"
SIZES = np.array([40, 8], np.int64)  # K 40, N 8: 2 blocks a column, 16 blobs
ZP8, SYM = ("u8", "[336]"), ("u8", "[320]")  # 21 and 20 bytes a blob

CASES = {
    "symbolic leading axes": (ms_case(["[b, s, 40]", ZP8, SIZES]),
                              {"y0": "[b, s, 8]", "dtypes": {"y0": "f32"}}),
    "A's last axis is K": (ms_case(["[m, k]", ZP8, SIZES]), {"x0": "[m, 40]"}),
    "the blob's length: 21 bytes a blob": (ms_case(["[m, 40]", ("u8", "B"), SIZES]),
                                           {"x1": "[336]"}),
    "the blob's length: 20 bytes with blk_quant_type 0": (
        ms_case(["[m, 40]", ("u8", "B"), SIZES], {"blk_quant_type": 0}), {"x1": "[320]"}),
    "any other blk_quant_type packs as 1": (ms_case(["[m, 40]", ZP8, SIZES],
                                                    {"blk_quant_type": 2}), {"y0": "[m, 8]"}),
    "a vector A": (ms_case(["[40]", ZP8, SIZES]), {"y0": "[8]"}),
    "K of 32: one block a column": (ms_case(["[m, 32]", ("u8", "B"), np.array([32, 3])]),
                                    {"x1": "[63]", "y0": "[m, 3]"}),
    "B_shape not a constant: N unknown": (ms_case(["[m, 40]", ZP8, ("i64", "S")]),
                                          {"x2": "[2]", "y0": "[m, _1]"}),
    "backward from the output": (ms_case(["A", ZP8, SIZES],
                                         outputs={"y0": {"shape": "[b, s, 8]"}}),
                                 {"x0": "[b, s, 40]"}),
    "no rows of A": (ms_case(["[0, 40]", ZP8, SIZES]), {"y0": "[0, 8]"}),
    "A's last axis is not K": (ms_case(["[m, 41]", ZP8, SIZES]), "error"),
    "a blob of another length": (ms_case(["[m, 40]", ("u8", "[320]"), SIZES]), "error"),
    "a 20-byte blob where blk_quant_type is 1": (ms_case(["[m, 40]", SYM, SIZES],
                                                         {"blk_quant_type": 1}), "error"),
    "K of 0": (ms_case(["[m, 0]", ("u8", "[0]"), np.array([0, 8])]), "error"),
    "N of 0": (ms_case(["[m, 40]", ("u8", "[0]"), np.array([40, 0])]), "error"),
    "three sizes": (ms_case(["[m, 40]", ZP8, np.array([1, 40, 8])]), "error"),
    "a scalar A": (ms_case(["[]", ZP8, SIZES]), "error"),
    "a 2-D blob": (ms_case(["[m, 40]", ("u8", "[16, 21]"), SIZES]), "error"),
    "f16 A": (ms_case([("f16", "[m, 40]"), ZP8, SIZES]), "error"),
    "int8 blob": (ms_case(["[m, 40]", ("i8", "[336]"), SIZES]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


def packed(rng, k, n, zp=True, extra=0):
    """A blob of random codes, scales in 0.01..1 and zero points in 0..15."""
    blocks = -(-k // 32)
    size = 21 if zp else 20
    blob = rng.integers(0, 256, (n, blocks, size)).astype(np.uint8)
    scales = (rng.random((n, blocks)) * 0.99 + 0.01).astype(np.float32)
    blob[:, :, :4] = scales.view(np.uint8).reshape(n, blocks, 4)
    if zp:
        blob[:, :, 4] = rng.integers(0, 16, (n, blocks))
    return np.concatenate([blob.reshape(-1), np.zeros(extra, np.uint8)])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(1, 3), max_size=2),
       k=st.integers(1, 80), n=st.integers(1, 6), qtype=st.sampled_from([None, 0, 1, 3]),
       extra=st.sampled_from([0, 0, 0, 1]), const_blob=st.booleans())
def test_matches_onnxruntime(seed, lead, k, n, qtype, extra, const_blob):
    """Random blobs (sometimes a byte too long: rejected), fed or constant."""
    rng = np.random.default_rng(seed)
    b = packed(rng, k, n, qtype != 0, extra)
    a = rng.standard_normal(tuple(lead) + (k,)).astype(np.float32)
    attrs = {} if qtype is None else {"blk_quant_type": qtype}
    want = check_against_onnxruntime(OP, [a, b, np.array([k, n], np.int64)], attrs,
                                     const=(1, 2) if const_blob else (2,), rtol=1e-3,
                                     atol=1e-3)
    assert (want is None) == bool(extra)


@pytest.mark.parametrize("a_shape, b_len, sizes, attrs", [
    ((3, 41), 336, [40, 8], {}), ((3, 40), 320, [40, 8], {}), ((3, 40), 336, [40, 8],
                                                                {"blk_quant_type": 0}),
    ((3, 0), 0, [0, 8], {}), ((3, 40), 0, [40, 0], {}), ((), 336, [40, 8], {}),
    ((3, 40), 336, [1, 40, 8], {}),
])
def test_onnxruntime_rejects_what_the_rules_reject(a_shape, b_len, sizes, attrs):
    arrays = [np.ones(a_shape, np.float32), np.zeros(b_len, np.uint8),
              np.array(sizes, np.int64)]
    assert check_against_onnxruntime(OP, arrays, attrs, const=(1, 2)) is None
