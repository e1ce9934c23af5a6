"""onnxruntime's contrib kernels (quantized LLM and diffusion ops) vs onnxruntime itself, on
random inputs: the kernels compute what its CPU provider does."""
import os

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check, seeds

MS = "com.microsoft"
FAST = settings(max_examples=15, deadline=None, derandomize=bool(os.environ.get("CI")))


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
            domain="", rtol=1e-3 if f16 else 1e-5, atol=1e-3 if f16 else 1e-5)


@FAST
@given(seed=seeds, b=st.integers(1, 3), s=st.integers(1, 4), h=st.integers(1, 9),
       bias=st.booleans())
def test_skip_simplified_layer_normalization(seed, b, s, h, bias):
    rng = np.random.default_rng(seed)
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
    arrays = [f(b, s, h), f(b, s, h), f(h), f(h) if bias else None]
    checked("SkipSimplifiedLayerNormalization", arrays, {"epsilon": 1e-6}, 4, rtol=1e-5,
            atol=1e-5)


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
    checked("QuickGelu", [x], {"alpha": alpha}, rtol=1e-5, atol=1e-6)
