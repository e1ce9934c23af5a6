"""GroupQueryAttention (com.microsoft): rules on data cases (the present's length waits for
total_sequence_length's value), and the kernel against onnxruntime."""

import numpy as np
import pytest

from shape_logic.kernels import load_kernel
from tests.contrib_ops import check_against_ort, check_contrib_case

HEADS = {"num_heads": 8, "kv_num_heads": 2}
SEQLENS = ("i32", "[b]")
TOTAL = ("i32", "[]")


def total(n):
    return np.array(n, np.int32)


CASES = {
    "separate q, k, v with a past; total unknown: a fresh length, one for both": (
        ["[b, s, 512]", "[b, s, 128]", "[b, s, 128]", "[b, 2, p, 64]", "[b, 2, p, 64]",
         SEQLENS, TOTAL], HEADS, 3,
        {"y0": "[b, s, 512]", "y1": "[b, 2, _, 64]", "y2": "y1"}),
    "a past and a known total: max(past, total)": (
        ["[b, s, 512]", "[b, s, 128]", "V", "[b, 2, p, 64]", "PV", SEQLENS, total(9)],
        HEADS, 3, {"y1": "[b, 2, max(9, p), 64]", "x2": "[b, s, 128]",
                   "x4": "[b, 2, p, 64]"}),
    "a past buffer longer than the total (shared buffer)": (
        ["[b, s, 512]", "[b, s, 128]", "V", "[b, 2, 16, 64]", "PV", SEQLENS, total(9)],
        HEADS, 4, {"y1": "[b, 2, 16, 64]", "y3": "[b, 8, s, 9]"}),
    "packed QKV, no past: the total": (
        ["[b, s, 768]", None, None, None, None, SEQLENS, total(7)], HEADS, 3,
        {"y0": "[b, s, 512]", "y1": "[b, 2, 7, 64]", "x5": "[b]"}),
    "sliding window cache: the present is the past's shape": (
        ["[b, s, 512]", "[b, s, 128]", "V", "[b, 2, c, 64]", "PV", SEQLENS, total(9)],
        {**HEADS, "sliding_window_cache": 1}, 3, {"y1": "[b, 2, c, 64]"}),
    "quantized caches: only batch and heads": (
        ["[b, s, 512]", "[b, s, 128]", "V", ("i8", "[b, 2, p, 32]"), ("i8", "PV"), SEQLENS,
         TOTAL], {**HEADS, "kv_cache_bit_width": 4, "k_quant_type": "PER_TENSOR"}, 3,
        {"y1": "[b, 2, _, _]", "x4": "[b, 2, p, _]"}),
    "heads not grouped": (["[b, s, 512]", "[b, s, 192]", "[b, s, 192]", None, None, SEQLENS,
                           TOTAL], {"num_heads": 8, "kv_num_heads": 3}, 1, "error"),
    "hidden size not a whole number of heads": (
        ["[b, s, 500]", None, None, None, None, SEQLENS, TOTAL], HEADS, 1, "error"),
    "key and value differ": (["[b, s, 512]", "[b, s, 128]", "[b, s, 64]", None, None,
                              SEQLENS, TOTAL], HEADS, 1, "error"),
    "key without value": (["[b, s, 512]", "[b, s, 128]", None, None, None, SEQLENS, TOTAL],
                          HEADS, 1, "error"),
    "kv_num_heads missing": (["[b, s, 512]", None, None, None, None, SEQLENS, TOTAL],
                             {"num_heads": 8}, 1, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, attrs, n_out, want = CASES[name]
    check_contrib_case("GroupQueryAttention", inputs, attrs, n_out, want)


def _arrays(rng, b, s, past, tot, heads, kv, h, packed=False, rotary=0, starts=None):
    f = lambda *sh: (rng.standard_normal(sh) * 0.5).astype(np.float32)  # noqa: E731
    if packed:
        qkv = [f(b, s, (heads + 2 * kv) * h), None, None]
    else:
        qkv = [f(b, s, heads * h), f(b, s, kv * h), f(b, s, kv * h)]
    cache = [f(b, kv, past, h), f(b, kv, past, h)] if past is not None else [None, None]
    ends = np.full(b, tot, np.int32) if starts is None else np.asarray(starts, np.int32) + s
    arrays = qkv + cache + [ends - 1, total(tot)]
    if rotary:
        arrays += [f(max(tot, 16), rotary // 2), f(max(tot, 16), rotary // 2)]
    return arrays


ORT_CASES = {
    "first prompt": (dict(b=2, s=3, past=None, tot=3), {}),
    "decoding with a past": (dict(b=2, s=1, past=5, tot=6), {}),
    "a shared buffer longer than the total, ragged batch": (
        dict(b=2, s=1, past=8, tot=5, starts=[4, 2]), {}),
    "a subsequent prompt (batch 1)": (dict(b=1, s=3, past=4, tot=7), {}),
    "packed QKV, decoding": (dict(b=2, s=1, past=3, tot=4, packed=True), {}),
    "rotary, softcap, local window, scale": (
        dict(b=2, s=1, past=6, tot=7, rotary=16),
        {"do_rotary": 1, "softcap": 2.0, "local_window_size": 3, "scale": 0.2}),
    "packed, rotary interleaved, first prompt": (
        dict(b=2, s=4, past=None, tot=4, packed=True, rotary=16),
        {"do_rotary": 1, "rotary_interleaved": 1}),
}


@pytest.mark.parametrize("name", ORT_CASES)
def test_kernel_and_shapes_match_onnxruntime(name):
    config, attrs = ORT_CASES[name]
    attrs = {"num_heads": 4, "kv_num_heads": 2, **attrs}
    arrays = _arrays(np.random.default_rng(0), heads=4, kv=2, h=16, **config)
    want = check_against_ort("GroupQueryAttention", arrays, attrs, n_outputs=3,
                             compare_shapes=range(3), const=(6,))
    got = load_kernel("GroupQueryAttention")(attrs, n_outputs=3, domain="com.microsoft")(*arrays)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, (k, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"output {k}")


def test_output_qk_shape_matches_onnxruntime():
    # onnxruntime gives output_qk [B, num_heads, S, total] (the total, not the present's
    # longer buffer); our kernel refuses qk_output, so only the shapes are compared
    arrays = _arrays(np.random.default_rng(1), b=2, s=1, past=8, tot=5, heads=4, kv=2, h=16,
                     starts=[4, 2])
    attrs = {"num_heads": 4, "kv_num_heads": 2, "qk_output": 1}
    want = check_against_ort("GroupQueryAttention", arrays, attrs, n_outputs=4,
                             compare_shapes=range(4), const=(6,))
    assert want[3].shape == (2, 4, 1, 5) and want[1].shape == (2, 2, 8, 16)
