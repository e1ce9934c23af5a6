"""GatherBlockQuantized (com.microsoft): rules/GatherBlockQuantized.lp on data cases, and the
rules and the kernel against onnxruntime on random quantized tables."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime

IDS = ("i64", "[b, s]")


def case(inputs, attrs, outputs=None):
    spec = {"inputs": inputs, "attrs": attrs, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "int4 embedding, symbolic ids": (
        case([("i4", "[32000, 4096]"), IDS, "S", ("i4", "Z")], {"block_size": 32}),
        {"y0": "[b, s, 4096]", "x2": "[32000, 128]", "x3": "[32000, 128]",
         "dtypes": {"y0": "f32"}}),
    "uint8 packs two values a byte (4 bits)": (
        case([("u8", "[32000, 2048]"), IDS, ("f16", "S"), ("u8", "Z")],
             {"block_size": 32, "bits": 4}),
        {"y0": "[b, s, 4096]", "x2": "[32000, 128]", "x3": "[32000, 64]",
         "dtypes": {"y0": "f16"}}),
    "uint8, 2 bits: four a byte, zero points too": (
        case([("u8", "[V, 16]"), IDS, "S", ("u8", "Z")], {"block_size": 16, "bits": 2}),
        {"y0": "[b, s, 64]", "x2": "[V, 4]", "x3": "[V, 1]"}),
    "uint8, 8 bits": (case([("u8", "[V, 64]"), IDS, "S"], {"block_size": 16, "bits": 8}),
                      {"y0": "[b, s, 64]", "x2": "[V, 4]"}),
    "symbolic table": (case([("u8", "[V, H]"), IDS, "S"], {"block_size": 32}),
                       {"y0": "[b, s, 2*H]", "x2": "[V, (2*H + 31)//32]"}),
    "default attributes: blocks of 128 along axis 1": (
        case([("i4", "[V, 300]"), ("i32", "[n]"), "S"], {}), {"y0": "[n, 300]", "x2": "[V, 3]"}),
    "a scalar index": (case([("i4", "[V, 48]"), ("i64", "[]"), "S"], {"block_size": 16}),
                       {"y0": "[48]"}),
    "gathered on axis 1, quantized on axis 0": (
        case([("i4", "[V, 48]"), ("i64", "[b]"), "S"],
             {"block_size": 16, "gather_axis": 1, "quantize_axis": 0}),
        {"y0": "[V, b]", "x2": "[(V + 15)//16, 48]"}),
    "gathered and quantized on one axis (int4)": (
        case([("i4", "[2, V, 40]"), ("i64", "[k]"), "S"],
             {"block_size": 16, "gather_axis": -1, "quantize_axis": 2}),
        {"y0": "[2, V, k]", "x2": "[2, V, 3]"}),
    "float8, one block a row (block_size 0)": (
        case([("f8e4m3fn", "[V, H]"), IDS, "S"], {"block_size": 0}),
        {"y0": "[b, s, H]", "x2": "[_1, 1]"}),
    "float8 scales broadcast over the rows": (
        case([("f8e4m3fn", "[V, 64]"), IDS, "[1, 2]"], {"block_size": 32}),
        {"y0": "[b, s, 64]"}),
    "backward: the packed width from the output": (
        case([("u8", "[V, h]"), IDS, "S"], {"block_size": 16, "bits": 4},
             outputs={"y0": {"shape": "[b, s, 64]"}}),
        {"x0": "[V, 32]", "bindings": {"h": 32}}),
    "uint8 gathered on axis 1": (case([("u8", "[V, 48]"), ("i64", "[]"), "S"],
                                      {"block_size": 16, "gather_axis": 1, "quantize_axis": 0}),
                                 "error"),
    "uint8, 4 bits, gathered on the quantized axis": (
        case([("u8", "[V, 48]"), ("i64", "[]"), "S"],
             {"block_size": 16, "gather_axis": 0, "quantize_axis": 0}), "error"),
    "int8 data": (case([("i8", "[V, 48]"), ("i64", "[]"), "S"], {"block_size": 16}), "error"),
    "int4 of 8 bits": (case([("i4", "[V, 48]"), ("i64", "[]"), "S"],
                            {"block_size": 16, "bits": 8}), "error"),
    "uint8 of 3 bits": (case([("u8", "[V, 48]"), ("i64", "[]"), "S"],
                             {"block_size": 16, "bits": 3}), "error"),
    "1-D data": (case([("i4", "[48]"), ("i64", "[]"), "S"], {"block_size": 16,
                                                           "quantize_axis": 0}), "error"),
    "scales' blocks": (case([("i4", "[V, 48]"), IDS, "[V, 4]"], {"block_size": 16}), "error"),
    "scales' rows": (case([("i4", "[10, 48]"), IDS, "[1, 3]"], {"block_size": 16}), "error"),
    "float8 scales: 1 or the size": (case([("f8e4m3fn", "[10, 64]"), IDS, "[2, 2]"],
                                          {"block_size": 32}), "error"),
    "int4 zero points of the scales' shape": (
        case([("i4", "[V, 48]"), IDS, "[V, 3]", ("i4", "[V, 2]")], {"block_size": 16}), "error"),
    "zero points of data's type": (
        case([("u4", "[V, 48]"), IDS, "[V, 3]", ("u8", "[V, 3]")], {"block_size": 16}), "error"),
    "float8 data take no zero points": (
        case([("f8e4m3fn", "[V, 48]"), IDS, "[V, 3]", ("f8e4m3fn", "[V, 3]")],
             {"block_size": 16}), "error"),
    "block_size 0 for integer data": (case([("i4", "[V, 48]"), IDS, "S"], {"block_size": 0}),
                                      "error"),
    "block_size not a power of two": (case([("i4", "[V, 48]"), IDS, "S"], {"block_size": 24}),
                                      "error"),
    "integer scales": (case([("i4", "[V, 48]"), IDS, ("i32", "S")], {"block_size": 16}), "error"),
    "float indices": (case([("i4", "[V, 48]"), "[b]", "S"], {"block_size": 16}), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("GatherBlockQuantized", spec, expected)


FLOAT8 = [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float4_e2m1fn]


def table(rng, kind, bits, shape):
    """Random data of `kind` whose values have `shape` (uint8 ones packed along the last
    axis; float ones of a float8 or float4 type)."""
    if kind == "int4":
        return rng.integers(-8, 8, shape).astype(ml_dtypes.int4)
    if kind == "uint4":
        return rng.integers(0, 16, shape).astype(ml_dtypes.uint4)
    if kind == "uint8":
        return rng.integers(0, 256, shape[:-1] + (shape[-1] * bits // 8,)).astype(np.uint8)
    return rng.standard_normal(shape).astype(FLOAT8[rng.integers(3)])


def zeros(rng, kind, bits, scales_shape):
    if kind == "int4":
        return rng.integers(-8, 8, scales_shape).astype(ml_dtypes.int4)
    if kind == "uint4":
        return rng.integers(0, 16, scales_shape).astype(ml_dtypes.uint4)
    packed = scales_shape[:-1] + (-(-scales_shape[-1] * bits // 8),)
    return rng.integers(0, 256, packed).astype(np.uint8)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["int4", "uint4", "uint8", "float"]),
       bits=st.sampled_from([2, 4, 8]), rows=st.integers(1, 12), cols=st.sampled_from([16, 48, 64]),
       lead=st.sampled_from([(), (2,)]), ids=st.lists(st.integers(-14, 13), min_size=0, max_size=3),
       nested=st.booleans(), axes=st.sampled_from([(0, -1), (0, 0), (1, -1), (-1, 0)]),
       block=st.sampled_from([16, 32, 0]), with_zero=st.booleans(), f16=st.booleans())
def test_matches_onnxruntime(seed, kind, bits, rows, cols, lead, ids, nested, axes, block,
                             with_zero, f16):
    rng = np.random.default_rng(seed)
    if kind != "uint8":
        bits = 4
    shape = lead + (rows, cols)
    gather_axis, quantize_axis = (len(lead) + a if a >= 0 else a for a in axes)
    if kind == "uint8":  # gathered on axis 0, quantized on the last (onnxruntime's CPU kernel)
        gather_axis, quantize_axis = 0, -1
    if block == 0 and kind != "float":
        block = 16
    data = table(rng, kind, bits, shape)
    qa = quantize_axis % len(shape)
    sshape = tuple(-(-d // block) if block and i == qa else 1 if i == qa else d
                   for i, d in enumerate(shape))
    scales = (rng.random(sshape) + 0.1).astype(np.float16 if f16 else np.float32)
    zp = zeros(rng, kind, bits, sshape) if with_zero and kind != "float" else None
    indices = np.array(ids, np.int64).reshape((1, -1) if nested else (-1,))
    attrs = {"bits": bits, "block_size": block, "gather_axis": gather_axis,
             "quantize_axis": quantize_axis}
    want = check_against_onnxruntime("GatherBlockQuantized", [data, indices, scales, zp], attrs,
                                     const=(0, 3))
    assert want is not None


@pytest.mark.parametrize("attrs, where", [
    ({"block_size": 16, "gather_axis": 1, "quantize_axis": 0}, "uint8 gathered on axis 1"),
    ({"block_size": 16, "bits": 3}, "3 bits"), ({"block_size": 8}, "blocks of 8"),
])
def test_onnxruntime_rejects_what_the_rules_reject(attrs, where):
    rng = np.random.default_rng(0)
    data = rng.integers(0, 256, (6, 24)).astype(np.uint8)
    arrays = [data, np.array([1, 2]), rng.random((6, 3)).astype(np.float32)]
    assert check_against_onnxruntime("GatherBlockQuantized", arrays, attrs, const=(0,)) is None, \
        where
