"""Quantization kernels (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv) vs onnx's reference evaluator."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check, rand, seeds
from .test_nn import conv_case

FAST = settings(max_examples=12, deadline=None)
small = st.integers(1, 4)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=3), data=st.data(),
       zdtype=st.sampled_from(["u8", "i8", "i16", "u16", None]))
def test_quantize_dequantize(seed, shape, data, zdtype):
    """QuantizeLinear and DequantizeLinear per tensor, per axis and per block (opset 21)."""
    rng = np.random.default_rng(seed)
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    attrs = {"axis": axis}
    kind = data.draw(st.sampled_from(["tensor", "axis", "block"]))
    if kind == "tensor":
        sshape = []
    elif kind == "axis":
        sshape = [shape[axis]]
    else:
        attrs["block_size"] = b = data.draw(st.integers(1, 3))
        sshape = [-(-d // b) if i == axis % r else d for i, d in enumerate(shape)]
    x = rand(rng, shape, "f32", -40, 40)
    scale = rand(rng, sshape, "f32", 0.05, 0.5)
    zero = None if zdtype is None else rand(rng, sshape, zdtype, -3, 9)
    ins = [x, scale] + ([zero] if zero is not None else [])
    (q,) = check("QuantizeLinear", ins, attrs, opset=21)
    check("DequantizeLinear", [q] + ins[1:], attrs, opset=21)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=3),
       to=st.sampled_from([17, 19, 22, 21]))
def test_quantize_small_types(seed, shape, to):
    # float8 (saturating), int4, uint4 through output_dtype
    x = rand(np.random.default_rng(seed), shape, "f32", -500, 500)
    (q,) = check("QuantizeLinear", [x, np.float32(0.7)], {"output_dtype": to}, opset=21)
    check("DequantizeLinear", [q, np.float32(0.7)], opset=21)


@FAST
@given(seed=seeds, shape=st.lists(small, max_size=3), lo=st.floats(-5, 0), hi=st.floats(0, 5))
def test_dynamic_quantize(seed, shape, lo, hi):
    x = rand(np.random.default_rng(seed), shape, "f32", lo, hi)
    check("DynamicQuantizeLinear", [x], n_outputs=3)


@pytest.mark.parametrize("x", [[1.4e-45], [1.4e-45, 0.0], [-1.4e-45, 1e-45], [1e-40]])
def test_dynamic_quantize_of_subnormals(x):
    # a range of subnormals: the scale underflows to 0, and the zero point is 0/0 (NaN),
    # which onnxruntime's and the reference's clamp make 255 (hypothesis found [1.4e-45])
    check("DynamicQuantizeLinear", [np.array(x, np.float32)], n_outputs=3)


@FAST
@given(seed=seeds, m=small, k=small, n=small, batch=st.lists(st.integers(1, 3), max_size=2),
       zeros=st.booleans())
def test_matmul_integer(seed, m, k, n, batch, zeros):
    rng = np.random.default_rng(seed)
    a = rand(rng, batch + [m, k], "u8", 0, 255)
    b = rand(rng, [k, n], "i8", -128, 127)
    z = [np.uint8(rng.integers(0, 255)), rand(rng, [n], "i8", -9, 9)] if zeros else []
    check("MatMulInteger", [a, b] + z)
    yz = np.int8(rng.integers(-9, 9))
    check("QLinearMatMul", [a, np.float32(0.03), np.uint8(7), b, np.float32(0.01), np.int8(3),
                            np.float32(rng.uniform(0.05, 1)), yz])


@FAST
@given(seed=seeds, case=conv_case(), per_channel=st.booleans())
def test_conv_integer(seed, case, per_channel):
    # 2-D only where a weight zero point or scale is per channel: onnx's reference lays
    # such vectors out for 2-D kernels only
    rng = np.random.default_rng(seed)
    x, w, attrs, bias = case
    per_channel = per_channel and len(x) == 4
    xq = rand(rng, x, "u8", 0, 255)
    wq = rand(rng, w, "i8", -128, 127)
    wz = rand(rng, [w[0]], "i8", -5, 5) if per_channel else np.int8(2)
    check("ConvInteger", [xq, wq, np.uint8(120), wz], attrs)
    ws = rand(rng, [w[0]], "f32", 0.001, 0.01) if per_channel else np.float32(0.005)
    b = rand(rng, [w[0]], "i32", -999, 999) if bias else None
    check("QLinearConv", [xq, np.float32(0.02), np.uint8(120), wq, ws, np.int8(0),
                          np.float32(rng.uniform(0.1, 2)), np.uint8(128), b], attrs)
