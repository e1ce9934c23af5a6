"""MatMulNBits (com.microsoft): rules/MatMulNBits.lp on data cases, and the rules and the
kernel against onnxruntime on random quantized weights."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime

ATTRS = {"K": 40, "N": 5, "bits": 4, "block_size": 16}  # 3 blocks of 8 bytes
B = ("u8", "[5, 3, 8]")


def case(inputs, attrs=ATTRS, outputs=None):
    spec = {"inputs": inputs, "attrs": attrs, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "symbolic leading axes": (case(["[b, s, 40]", B, "[5, 3]"]),
                              {"y0": "[b, s, 5]", "dtypes": {"y0": "f32"}}),
    "A's last axis is K": (case(["[b, s, k]", ("u8", "W"), "S"]),
                           {"x0": "[b, s, 40]", "y0": "[b, s, 5]", "bindings": {"k": 40}}),
    "a vector": (case(["[40]", B, "[5, 3]"]), {"y0": "[5]"}),
    "4-D": (case(["[1, b, 1, 40]", B, "[5, 3]"]), {"y0": "[1, b, 1, 5]"}),
    "backward from the output": (case(["A", ("u8", "W"), "S"],
                                      outputs={"y0": {"shape": "[b, s, 5]"}}),
                                 {"x0": "[b, s, 40]"}),
    "bias is [N]": (case(["[m, 40]", B, "[5, 3]", None, None, "Bias"]), {"x5": "[5]"}),
    "f16": (case([("f16", "[m, 40]"), B, ("f16", "[5, 3]")]), {"dtypes": {"y0": "f16"}}),
    "8 bits, packed zero points": (
        case(["[m, 64]", ("u8", "[7, 2, 32]"), "[7, 2]", ("u8", "[7, 2]")],
             {"K": 64, "N": 7, "bits": 8, "block_size": 32}), {"y0": "[m, 7]"}),
    "2 bits, zero points of 2 blocks in a byte": (
        case(["[m, 64]", ("u8", "[7, 4, 4]"), "[7, 4]", ("u8", "[7, 1]")],
             {"K": 64, "N": 7, "bits": 2, "block_size": 16}), {"y0": "[m, 7]"}),
    "flat scales and zero points": (case(["[m, 40]", B, "[15]", ("u8", "[10]")]),
                                    {"y0": "[m, 5]"}),
    "float zero points, one per block": (case(["[m, 40]", B, "[5, 3]", "[5, 3]"]),
                                         {"y0": "[m, 5]"}),
    "B's packed shape is not derived (an omitted projection has 0 dims)": (
        case(["[m, 40]", ("u8", "W"), "S"]), {"x1": "[_1, _2, _3]", "x2": "S"}),
    "an omitted projection: B with a 0 dim, scales unread": (
        case(["[m, 40]", ("u8", "[0, 3, 8]"), "[0]"]), {"y0": "[m, 5]"}),
    "prepacked: B not described": (
        case(["[m, 40]", ("u8", "[7]"), "[5, 3]"], {**ATTRS, "weight_prepacked": 1}),
        {"y0": "[m, 5]"}),
    "A's last axis is not K": (case(["[b, 41]", B, "[5, 3]"]), "error"),
    "a scalar A": (case(["[]", B, "[5, 3]"]), "error"),
    "B's blocks": (case(["[b, 40]", ("u8", "[5, 2, 8]"), "[5, 3]"]), "error"),
    "B 2-D": (case(["[b, 40]", ("u8", "[5, 24]"), "[5, 3]"]), "error"),
    "B not uint8": (case(["[b, 40]", ("i8", "[5, 3, 8]"), "[5, 3]"]), "error"),
    "scales' blocks": (case(["[b, 40]", B, "[5, 2]"]), "error"),
    "flat scales' size": (case(["[b, 40]", B, "[16]"]), "error"),
    "scales 3-D": (case(["[b, 40]", B, "[5, 3, 1]"]), "error"),
    "scales not A's type": (case(["[b, 40]", B, ("f16", "[5, 3]")]), "error"),
    "packed zero points hold 2 blocks a byte": (case(["[b, 40]", B, "[5, 3]", ("u8", "[5, 3]")]),
                                                "error"),
    "float zero points, one per block, not packed": (
        case(["[b, 40]", B, "[5, 3]", "[5, 2]"]), "error"),
    "g_idx: one per row of K": (case(["[b, 40]", B, "[5, 3]", None, ("i32", "[10]")]), "error"),
    "bias not [N]": (case(["[b, 40]", B, "[5, 3]", None, None, "[6]"]), "error"),
    "integer A": (case([("i32", "[b, 40]"), B, ("i32", "[5, 3]")]), "error"),
    "block_size not a power of two": (case(["[b, 40]", B, "[5, 3]"],
                                           {**ATTRS, "block_size": 24}), "error"),
    "block_size below 16": (case(["[b, 40]", B, "[5, 3]"], {**ATTRS, "block_size": 8}),
                            "error"),
    "bits past 8": (case(["[b, 40]", B, "[5, 3]"], {**ATTRS, "bits": 9}), "error"),
    "K missing": (case(["[b, 40]", B, "[5, 3]"], {"N": 5, "block_size": 16}), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("MatMulNBits", spec, expected)


def quantized(rng, k, n, bits, block, zero):
    """B, scales and zero points (None, packed "u8" or "float") of a random weight."""
    k_blocks = -(-k // block)
    b = rng.integers(0, 256, (n, k_blocks, block * bits // 8)).astype(np.uint8)
    scales = (rng.random((n, k_blocks)) * 0.2).astype(np.float32)
    if zero == "u8":
        zp = rng.integers(0, 256, (n, -(-k_blocks * bits // 8))).astype(np.uint8)
    elif zero == "float":
        zp = (rng.random((n, k_blocks)) * 2 ** bits).astype(np.float32)
    else:
        zp = None
    return b, scales, zp


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(1, 3), max_size=2),
       k=st.integers(1, 70), n=st.integers(1, 6), bits=st.sampled_from([2, 4, 8]),
       block=st.sampled_from([16, 32, 64]), zero=st.sampled_from([None, "u8", "float"]),
       bias=st.booleans(), flat=st.booleans())
def test_matches_onnxruntime(seed, lead, k, n, bits, block, zero, bias, flat):
    if bits == 8 and zero == "float":
        zero = "u8"  # onnxruntime's CPU kernel has no 8-bit weights with float zero points
    rng = np.random.default_rng(seed)
    b, scales, zp = quantized(rng, k, n, bits, block, zero)
    if flat:
        scales = scales.reshape(-1)
    a = rng.standard_normal(tuple(lead) + (k,)).astype(np.float32)
    arrays = [a, b, scales, zp, None, rng.standard_normal(n).astype(np.float32) if bias else None]
    attrs = {"K": k, "N": n, "bits": bits, "block_size": block}
    assert check_against_onnxruntime("MatMulNBits", arrays, attrs, const=(1,)) is not None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(17, 64), zero=st.sampled_from([None, "float"]))
def test_g_idx_matches_onnxruntime(seed, k, zero):
    # a row's block from g_idx (GPTQ's act order); onnxruntime's CPU kernel gets it right for
    # 4 bits without packed zero points (it ignores those), so only those are compared
    rng = np.random.default_rng(seed)
    b, scales, zp = quantized(rng, k, 3, 4, 16, zero)
    g_idx = rng.integers(0, scales.shape[1], k).astype(np.int32)
    a = rng.standard_normal((2, k)).astype(np.float32)
    attrs = {"K": k, "N": 3, "bits": 4, "block_size": 16}
    assert check_against_onnxruntime("MatMulNBits", [a, b, scales, zp, g_idx], attrs) is not None


@pytest.mark.parametrize("b_shape, scales_shape", [((0, 3, 8), (0,)), ((5, 0, 8), (5, 3)),
                                                   ((0, 0, 0), (0, 0))])
def test_omitted_projection_matches_onnxruntime(b_shape, scales_shape):
    # B with 0 dims: Y is the bias, broadcast; scales are not read
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((2, 3, 40)).astype(np.float32), np.zeros(b_shape, np.uint8),
              np.zeros(scales_shape, np.float32), None, None, np.arange(5, dtype=np.float32)]
    assert check_against_onnxruntime("MatMulNBits", arrays, ATTRS) is not None


@pytest.mark.parametrize("change, where", [
    ({"B": (5, 2, 8)}, "B's blocks"), ({"A": (3, 41)}, "A's K"), ({"scales": (5, 4)}, "scales"),
    ({"bias": (6,)}, "bias"), ({"zp": (5, 3)}, "packed zero points"),
])
def test_onnxruntime_rejects_what_the_rules_reject(change, where):
    rng = np.random.default_rng(1)
    shapes = {"A": (3, 40), "B": (5, 3, 8), "scales": (5, 3), "zp": (5, 2), "bias": (5,),
              **change}
    arrays = [rng.standard_normal(shapes["A"]).astype(np.float32),
              rng.integers(0, 256, shapes["B"]).astype(np.uint8),
              rng.random(shapes["scales"]).astype(np.float32),
              rng.integers(0, 256, shapes["zp"]).astype(np.uint8), None,
              rng.random(shapes["bias"]).astype(np.float32)]
    assert check_against_onnxruntime("MatMulNBits", arrays, ATTRS) is None, where
