"""onnxruntime's contrib kernels (quantized LLM and diffusion ops) vs onnxruntime itself, on
random inputs: the kernels compute what its CPU provider does (the diffusion ops, which it
runs on CUDA only, vs their documented formulas)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import reference_outputs

from .reference import TESTED, check, seeds

MS = "com.microsoft"
FAST = settings(max_examples=15, deadline=None)


def checked(op, arrays, attrs, n_outputs=1, domain=MS, rtol=1e-3, atol=1e-4, const=()):
    """check(..., ort=True), which skips a case onnxruntime rejects: here each one must run."""
    got = check(op, arrays, attrs, n_outputs, opset=21, const=const, ort=True, domain=domain,
                rtol=rtol, atol=atol)
    assert got is not None, f"{op}: onnxruntime (or our kernel) rejected the case"
    return got


@FAST
@given(seed=seeds, m=st.integers(1, 4), k=st.integers(1, 80), n=st.integers(1, 8),
       bits=st.sampled_from([2, 4, 8]), block=st.sampled_from([16, 32, 128]),
       zero=st.sampled_from([None, "u8", "float"]), f16=st.booleans())
def test_matmul_nbits(seed, m, k, n, bits, block, zero, f16):
    rng = np.random.default_rng(seed)
    k_blocks = -(-k // block)
    dtype = np.float16 if f16 else np.float32
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.integers(0, 256, (n, k_blocks, block * bits // 8)).astype(np.uint8)
    scales = (rng.random((n, k_blocks)) * 0.1).astype(dtype)
    zp = None
    if zero == "u8":
        zp = rng.integers(0, 256, (n, -(-k_blocks * bits // 8))).astype(np.uint8)
    elif zero == "float" and bits != 8:  # (the CPU kernel has no 8 bits with float ones)
        zp = (rng.random((n, k_blocks)) * 2 ** bits).astype(dtype)
    bias = rng.standard_normal(n).astype(dtype)
    attrs = {"K": k, "N": n, "bits": bits, "block_size": block}
    tol = 2e-2 if f16 else 1e-4
    checked("MatMulNBits", [a, b, scales, zp, None, bias], attrs, rtol=tol, atol=tol)


@FAST
@given(seed=seeds, kind=st.sampled_from(["int4", "uint4", "uint8", "float8"]),
       bits=st.sampled_from([2, 4, 8]), rows=st.integers(1, 9), blocks=st.integers(1, 3),
       ids=st.lists(st.integers(-10, 9), min_size=1, max_size=4), zero=st.booleans())
def test_gather_block_quantized(seed, kind, bits, rows, blocks, ids, zero):
    import ml_dtypes

    rng = np.random.default_rng(seed)
    cols = 16 * blocks
    if kind == "uint8":
        data = rng.integers(0, 256, (rows, cols * bits // 8)).astype(np.uint8)
        zp = rng.integers(0, 256, (rows, -(-blocks * bits // 8))).astype(np.uint8)
    else:
        bits = 4
        data = {"int4": rng.integers(-8, 8, (rows, cols)).astype(ml_dtypes.int4),
                "uint4": rng.integers(0, 16, (rows, cols)).astype(ml_dtypes.uint4),
                "float8": rng.standard_normal((rows, cols)).astype(ml_dtypes.float8_e4m3fn)}[kind]
        zp = None if kind == "float8" else rng.integers(0, 8, (rows, blocks)).astype(data.dtype)
    scales = rng.random((rows, blocks)).astype(np.float32)
    attrs = {"bits": bits, "block_size": 16}
    arrays = [data, np.array(ids, np.int64), scales, zp if zero else None]
    checked("GatherBlockQuantized", arrays, attrs, const=(0, 3))


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 5), min_size=1, max_size=4), data=st.data(),
       f16=st.booleans())
def test_simplified_layer_normalization(seed, shape, data, f16):
    # onnxruntime registers it in ONNX's domain (as onnxruntime-genai's builder writes it)
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = rng.standard_normal(shape).astype(np.float16 if f16 else np.float32)
    scale = rng.standard_normal(shape[axis % len(shape):]).astype(np.float32)
    checked("SimplifiedLayerNormalization", [x, scale], {"axis": axis, "epsilon": 1e-5}, 2,
            domain="", rtol=1e-3 if f16 else 1e-4, atol=1e-3 if f16 else 1e-4)


@FAST
@given(seed=seeds, b=st.integers(1, 3), s=st.integers(1, 4), h=st.integers(1, 9),
       bias=st.booleans())
def test_skip_simplified_layer_normalization(seed, b, s, h, bias):
    rng = np.random.default_rng(seed)
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
    arrays = [f(b, s, h), f(b, s, h), f(h), f(h) if bias else None]
    checked("SkipSimplifiedLayerNormalization", arrays, {"epsilon": 1e-6}, 4, rtol=1e-4,
            atol=1e-4)


@FAST
@given(seed=seeds, b=st.integers(1, 3), m=st.integers(1, 4), k=st.integers(1, 4),
       n=st.integers(1, 4), flags=st.lists(st.booleans(), min_size=4, max_size=4),
       alpha=st.sampled_from([1.0, 0.25]))
def test_fused_matmul(seed, b, m, k, n, flags, alpha):
    # 3-D operands given in the layout each flag transposes back to [b, m, k] x [b, k, n]
    ta, tb, tba, tbb = flags
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((b, m, k))
    w = rng.standard_normal((b, k, n))
    if ta:
        a = a.swapaxes(-1, -2)
    if tba:
        a = np.moveaxis(a, -2, 0)
    if tb:
        w = w.swapaxes(-1, -2)
    if tbb:
        w = np.moveaxis(w, -2, 0)
    attrs = {"transA": int(ta), "transB": int(tb), "transBatchA": int(tba),
             "transBatchB": int(tbb), "alpha": alpha}
    checked("FusedMatMul", [a.astype(np.float32), w.astype(np.float32)], attrs)


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 5), max_size=3),
       alpha=st.sampled_from([1.702, 1.0, -1.0]))
def test_quick_gelu(seed, shape, alpha):
    x = (np.random.default_rng(seed).standard_normal(shape) * 5).astype(np.float32)
    checked("QuickGelu", [x], {"alpha": alpha}, rtol=1e-5, atol=1e-5)


# The diffusion ops: onnxruntime runs them on CUDA only; the reference is their documented
# formula, with onnx's reference evaluator for the parts ONNX has (GroupNormalization, Gelu)

def group_norm_reference(s, gamma, beta, groups, activation):
    """NHWC group normalization through ONNX's GroupNormalization (opset 21, NCHW), in
    float64 (stash_type DOUBLE): its function body takes the variance as E[x^2] - E[x]^2,
    which in float32 loses digits on a group of nearly equal values (x = [0.66203,
    0.66662]: 0.603095 where the exact value is 0.603393, as ours gives)."""
    (y,) = reference_outputs("GroupNormalization",
                             [np.moveaxis(s, -1, 1).astype(np.float64),
                              gamma.astype(np.float64), beta.astype(np.float64)],
                             {"num_groups": groups, "epsilon": 1e-5, "stash_type": 11},
                             opset=21)
    y = np.moveaxis(y, 1, -1)
    return y / (1 + np.exp(-y)) if activation else y


@FAST
@given(seed=seeds, n=st.integers(1, 2), h=st.integers(1, 3), w=st.integers(1, 3),
       groups=st.sampled_from([1, 2, 4]), per_group=st.integers(1, 3),
       activation=st.sampled_from([0, 1]), channels_last=st.sampled_from([0, 1]))
def test_group_norm(seed, n, h, w, groups, per_group, activation, channels_last):
    rng = np.random.default_rng(seed)
    c = groups * per_group
    x, gamma, beta = (rng.standard_normal(s).astype(np.float32) for s in ((n, h, w, c), c, c))
    attrs = {"groups": groups, "activation": activation, "channels_last": channels_last}
    TESTED.add("GroupNorm")
    kernel = load_kernel("GroupNorm")(attrs, domain=MS)
    (got,) = kernel(x if channels_last else np.moveaxis(x, -1, 1), gamma, beta)
    want = group_norm_reference(x, gamma, beta, groups, activation)
    np.testing.assert_allclose(got, want if channels_last else np.moveaxis(want, -1, 1),
                               rtol=1e-4, atol=1e-4)


@FAST
@given(seed=seeds, n=st.integers(1, 2), h=st.integers(1, 3), w=st.integers(1, 3),
       groups=st.sampled_from([1, 2]), skip=st.sampled_from(["full", "pixel", "2-D"]),
       bias=st.booleans())
def test_skip_group_norm(seed, n, h, w, groups, skip, bias):
    rng = np.random.default_rng(seed)
    c = 2 * groups
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    x, gamma, beta, b = f(n, h, w, c), f(c), f(c), f(c) if bias else None
    k = {"full": f(n, h, w, c), "pixel": f(n, 1, 1, c), "2-D": f(n, c)}[skip]
    TESTED.add("SkipGroupNorm")
    kernel = load_kernel("SkipGroupNorm")({"groups": groups, "activation": 1}, n_outputs=2,
                                          domain=MS)
    got_y, got_s = kernel(x, gamma, beta, k, b)
    s = x + k.reshape((n, 1, 1, c) if k.ndim == 2 else k.shape) + (0 if b is None else b)
    np.testing.assert_allclose(got_s, s, rtol=1e-6)
    np.testing.assert_allclose(got_y, group_norm_reference(s, gamma, beta, groups, 1),
                               rtol=1e-4, atol=1e-4)


@FAST
@given(seed=seeds, n=st.integers(1, 2), s=st.integers(1, 4), half=st.integers(1, 5))
def test_bias_split_gelu(seed, n, s, half):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, s, 2 * half)).astype(np.float32)
    bias = rng.standard_normal(2 * half).astype(np.float32)
    TESTED.add("BiasSplitGelu")
    (got,) = load_kernel("BiasSplitGelu")({}, domain=MS)(x, bias)
    left, right = np.split(x + bias, 2, axis=-1)
    (gelu,) = reference_outputs("Gelu", [right], opset=20)
    np.testing.assert_allclose(got, left * gelu, rtol=1e-5, atol=1e-5)


def test_bias_add():
    rng = np.random.default_rng(0)
    x, skip = rng.standard_normal((2, 6, 4)), rng.standard_normal((2, 6, 4))
    bias = rng.standard_normal(4)
    TESTED.add("BiasAdd")
    (got,) = load_kernel("BiasAdd")({}, domain=MS)(x, bias, skip)
    np.testing.assert_allclose(got, x + bias + skip)


@FAST
@given(seed=seeds, m=st.integers(1, 4), k=st.integers(1, 6), n=st.integers(1, 5),
       shift=st.sampled_from([0.0, 1.5, -2.0]), per_column=st.booleans())
def test_dynamic_quantize_matmul(seed, m, k, n, shift, per_column):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((2, m, k)) + shift).astype(np.float32)
    cols = (n,) if per_column else ()
    arrays = [a, rng.integers(-128, 128, (k, n)).astype(np.int8),
              (rng.random(cols) * 0.01 + 0.001).astype(np.float32),
              rng.integers(-5, 5, cols).astype(np.int8), rng.standard_normal(n).astype(np.float32)]
    checked("DynamicQuantizeMatMul", arrays, {}, rtol=1e-4, atol=1e-4)


@FAST
@given(seed=seeds, m=st.integers(1, 4), k=st.integers(1, 6), n=st.integers(1, 5),
       per_column=st.booleans())
def test_matmul_integer_to_float(seed, m, k, n, per_column):
    rng = np.random.default_rng(seed)
    cols = (n,) if per_column else ()
    arrays = [rng.integers(0, 256, (m, k)).astype(np.uint8),
              rng.integers(-128, 128, (k, n)).astype(np.int8),
              np.float32(0.02), (rng.random(cols) * 0.01).astype(np.float32),
              np.uint8(rng.integers(0, 256)), rng.integers(-5, 5, cols).astype(np.int8)]
    checked("MatMulIntegerToFloat", arrays, {}, rtol=1e-5, atol=1e-5)


# QOperator quantization's ops: within one step of the output's rounding (onnxruntime
# computes in float32, through lookup tables for the unary ones)

def quantized(rng, shape, signed):
    lo, hi, dtype = (-128, 128, np.int8) if signed else (0, 256, np.uint8)
    return rng.integers(lo, hi, shape).astype(dtype)


def makers(rng, signed):
    """(q, s): q(*shape) a random quantized tensor (a zero point without a shape), s() a
    random scale."""
    return (lambda *shape: quantized(rng, shape, signed),
            lambda: np.float32(rng.random() * 0.05 + 0.01))


@FAST
@given(seed=seeds, op=st.sampled_from(["QLinearAdd", "QLinearMul"]), signed=st.booleans(),
       n=st.integers(1, 5))
def test_qlinear_binary(seed, op, signed, n):
    rng = np.random.default_rng(seed)
    q, s = makers(rng, signed)
    checked(op, [q(3, n), s(), q(), q(n), s(), q(), s(), q()], {}, rtol=0, atol=1)


@FAST
@given(seed=seeds, signed=st.booleans(), shape=st.lists(st.integers(1, 4), min_size=3,
                                                        max_size=4))
def test_qlinear_sigmoid_and_global_average_pool(seed, signed, shape):
    rng = np.random.default_rng(seed)
    q, s = makers(rng, signed)
    x = quantized(rng, shape, signed)
    checked("QLinearSigmoid", [x, s(), q(), np.float32(0.004), q()], {}, rtol=0, atol=1)
    checked("QLinearGlobalAveragePool", [x, s(), q(), s(), q()], {"channels_last": 1}, rtol=0,
            atol=1)


@FAST
@given(seed=seeds, signed=st.booleans(), sizes=st.lists(st.integers(1, 3), min_size=1,
                                                        max_size=3))
def test_qlinear_concat(seed, signed, sizes):
    rng = np.random.default_rng(seed)
    q, s = makers(rng, signed)
    arrays = [s(), q()]
    for k in sizes:
        arrays += [q(2, k), s(), q()]
    checked("QLinearConcat", arrays, {"axis": 1}, rtol=0, atol=1)


# com.microsoft contrib ops: onnxruntime is the reference
@pytest.mark.parametrize("op, shapes, attrs, n_out", [
    ("BiasGelu", [(2, 3, 8), (8,)], {}, 1),
    ("FastGelu", [(2, 3, 8), (8,)], {}, 1),
    ("SkipLayerNormalization", [(2, 3, 8), (2, 3, 8), (8,), (8,), (8,)], {"epsilon": 1e-5}, 4),
    ("Attention", [(2, 5, 16), (16, 48), (48,)], {"num_heads": 4}, 2),
    ("Attention", [(2, 5, 16), (16, 48), (48,), None, (2, 2, 4, 3, 4)],
     {"num_heads": 4, "unidirectional": 1}, 2),
    ("MultiHeadAttention", [(2, 3, 16), (2, 5, 16), (2, 5, 16), (48,), None, None,
                            (2, 4, 2, 4), (2, 4, 2, 4)], {"num_heads": 4}, 3),
])
def test_contrib_kernels_match_onnxruntime(op, shapes, attrs, n_out):
    from shape_logic.kernels import load_kernel
    from tests.contrib_ops import ort_contrib

    rng = np.random.default_rng(0)
    arrays = [None if s is None else (rng.standard_normal(s) * 0.3).astype(np.float32)
              for s in shapes]
    want = ort_contrib(op, arrays, attrs, n_out)
    got = load_kernel(op)(attrs, n_outputs=n_out)(*arrays)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4)


def test_group_query_attention_matches_onnxruntime():
    # decoding one token per batch entry over a past of 3, kv heads serving 2 query heads
    from tests.contrib_ops import ort_contrib

    rng = np.random.default_rng(0)
    f = lambda *s: (rng.standard_normal(s) * 0.5).astype(np.float32)  # noqa: E731
    arrays = [f(2, 1, 64), f(2, 1, 32), f(2, 1, 32), f(2, 2, 3, 16), f(2, 2, 3, 16),
              np.array([3, 3], np.int32), np.array(4, np.int32)]
    attrs = {"num_heads": 4, "kv_num_heads": 2}
    want = ort_contrib("GroupQueryAttention", arrays, attrs, 3)
    got = load_kernel("GroupQueryAttention")(attrs, n_outputs=3)(*arrays)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_embed_layer_normalization_matches_onnxruntime():
    from tests.contrib_ops import ort_contrib

    rng = np.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    arrays = [rng.integers(0, 20, (2, 5)).astype(np.int32),
              rng.integers(0, 2, (2, 5)).astype(np.int32), f(20, 8), f(16, 8), f(2, 8), f(8),
              f(8), (rng.random((2, 5)) < 0.7).astype(np.int32)]
    want = ort_contrib("EmbedLayerNormalization", arrays, {"epsilon": 1e-5}, 3)
    got = load_kernel("EmbedLayerNormalization")({"epsilon": 1e-5}, n_outputs=3)(*arrays)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4)


def test_rotary_embedding_matches_onnxruntime():
    # 4-D input, a position offset, a rotary dim below the head size
    from tests.contrib_ops import ort_contrib

    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4, 3, 16)).astype(np.float32)
    cos, sin = (rng.standard_normal((8, 4)).astype(np.float32) for _ in range(2))
    arrays = [x, np.array([2], np.int64), cos, sin]
    attrs = {"rotary_embedding_dim": 8, "num_heads": 4}
    (want,) = ort_contrib("RotaryEmbedding", arrays, attrs)
    kernel = load_kernel("RotaryEmbedding")(attrs)
    kernel.microsoft = True
    (got,) = kernel(*arrays)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_embed_layer_normalization_without_segments_matches_onnxruntime():
    # DistilBERT, fused by onnxruntime's transformer optimizer: no segment ids nor
    # segment embeddings (inputs 1 and 4 absent, before the required gamma and beta)
    from tests.contrib_ops import ort_contrib

    rng = np.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    arrays = [rng.integers(0, 20, (2, 5)).astype(np.int32), None, f(20, 8), f(16, 8), None,
              f(8), f(8), np.ones((2, 5), np.int32)]
    want = ort_contrib("EmbedLayerNormalization", arrays, {"epsilon": 1e-5}, 3)
    got = load_kernel("EmbedLayerNormalization")({"epsilon": 1e-5}, n_outputs=3)(*arrays)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4)
    one = list(arrays)
    one[1] = np.zeros((2, 5), np.int32)  # segment ids without their embeddings
    with pytest.raises(ValueError, match="go together"):
        load_kernel("EmbedLayerNormalization")({}, n_outputs=3)(*one)


def test_absent_zero_points_are_zero():
    rng = np.random.default_rng(0)
    q, s = makers(rng, False)
    x, xs, ys, yz = q(2, 3), s(), s(), q()
    # QLinearSigmoid without X's zero point: onnxruntime takes it
    from tests.contrib_ops import ort_contrib

    (want,) = ort_contrib("QLinearSigmoid", [x, xs, None, ys, yz])
    (got,) = load_kernel("QLinearSigmoid")({})(x, xs, None, ys, yz)
    np.testing.assert_array_equal(got, want)
    # QLinearAdd without A's and B's zero points: as with explicit zeros
    zero = np.uint8(0)
    add = load_kernel("QLinearAdd")({})
    (got,) = add(x, xs, None, x, xs, None, ys, yz)
    (explicit,) = add(x, xs, zero, x, xs, zero, ys, yz)
    np.testing.assert_array_equal(got, explicit)
