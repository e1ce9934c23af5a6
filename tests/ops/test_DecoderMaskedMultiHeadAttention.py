"""DecoderMaskedMultiHeadAttention (com.microsoft): rules on data cases (one token; the
cache a shared buffer [B, heads, M, E] that the present is; mask, attention_bias and qk
over the total length P + L, P read from past_sequence_length's value), and the rules and
the kernel against onnxruntime 1.32's CPU kernel on random decoding steps: self-attention
over the cache (beam search's cache_indirection too), cross attention, qk. Packed QKV,
which that kernel refuses (its CUDA kernel runs it), against onnxruntime on the same
tensors unpacked."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto, helper

from shape_logic import solve
from shape_logic.kernels import load_kernel
from shape_logic.testing import node_graph
from tests.contrib_ops import MS, check_against_onnxruntime, onnxruntime_verdict

OP = "DecoderMaskedMultiHeadAttention"
HEADS = {"num_heads": 4}
SHARED = {**HEADS, "past_present_share_buffer": 1}
CACHE = ["[b, 4, m, 16]", "PV"]
MASK, CI = ("i32", "M"), ("i32", "CI")
OUT3, CROSS_QK = ["y0", "y1", "y2"], ["y0", "", "", "y3"]


def i32(v):
    return np.array(v, np.int32)


def solved(inputs, attrs, outputs=("y0",), declared=None):
    """One node, its outputs named as given ("" for an absent one)."""
    g = node_graph(OP, inputs, attrs, len(outputs), outputs=declared, domain=MS)
    g["nodes"][0]["outputs"] = list(outputs)
    return solve(g)


def self_step(p, *extra, q="[b, s, 64]", cache=CACHE):
    """A self-attention step's inputs: query, key, value, the mask, attention_bias, the
    cache and past_sequence_length p (a constant's value, or a tensor's declaration)."""
    mask, bias = (extra + (None, None))[:2]
    return [q, "[b, 1, 64]", "[b, 1, 64]", mask, bias, *cache,
            i32(p) if isinstance(p, int) else p, *extra[2:]]


CASES = {
    "the cache: the present is the past's buffer, one token": (
        self_step(5), SHARED, OUT3,
        {"x0": "[b, 1, 64]", "y0": "[b, 1, 64]", "y1": "[b, 4, m, 16]", "y2": "y1",
         "x6": "[b, 4, m, 16]"}),
    "the mask, attention_bias and qk over P + 1": (
        self_step(5, MASK, "AB"), {**SHARED, "output_qk": 1}, OUT3 + ["y3"],
        {"x3": "[b, 6]", "x4": "[_, _, 1, 6]", "y3": "[b, 4, 1, 6]"}),
    "P not known: one fresh length for the mask, attention_bias and qk": (
        self_step(("i32", "[1]"), MASK, "AB"), {**SHARED, "output_qk": 1}, OUT3 + ["y3"],
        {"x3": "[b, _1]", "y3": "[b, 4, 1, _1]", "x4": "[_, _, 1, _1]"}),
    "a buffer of 8 for a symbolic head count": (
        self_step(7, cache=["[b, h, 8, e]", "PV"]), SHARED, OUT3,
        {"y1": "[b, 4, 8, 16]", "x6": "[b, 4, 8, 16]"}),
    "cross attention, keys in heads: qk over the keys' length": (
        ["[b, s, 64]", "[b, h, l, e]", "V", MASK], {**HEADS, "output_qk": 1}, CROSS_QK,
        {"x1": "[b, 4, l, 16]", "x2": "[b, 4, l, 16]", "x3": "[b, l]", "y0": "[b, 1, 64]",
         "y3": "[b, 4, 1, l]"}),
    "cross attention, 3-D keys and values": (
        ["[b, s, 64]", "[b, k, d]", "[b, l, dv]"], HEADS, ["y0"],
        {"x1": "[b, k, 64]", "x2": "[b, k, dv]", "y0": "[b, 1, dv]"}),
    "packed QKV: a third of the hidden size": (
        ["[b, s, 192]", None, None, None, None, *CACHE, i32(0)], SHARED, OUT3,
        {"y0": "[b, 1, 64]", "y1": "[b, 4, m, 16]"}),
    "5-D packing [B, 1, heads, 3, E]": (
        ["[b, s, 4, 3, e]", None, None, None, None, "[b, 4, m, e]", "PV", i32(0)], SHARED,
        OUT3, {"y0": "[b, 1, 4*e]"}),
    "the bias: 2 * D + D_v": (self_step(0, None, None, None, None, "B"), SHARED, OUT3,
                              {"x10": "[192]"}),
    "beams: [B / beams, beams, M]": (
        self_step(5, None, None, i32(2), CI, q="[6, s, 64]",
                  cache=["[6, 4, m, 16]", "PV"]), SHARED, OUT3, {"x9": "[3, 2, m]"}),
    "beams not known: the batch is their product": (
        self_step(5, None, None, None, ("i32", "[c, k, n]"), q="[6, s, 64]",
                  cache=["[6, 4, m, 16]", "PV"]), SHARED, OUT3,
        {"x9": "[c, k, m]", "bindings": {"b": 6, "n": "m", "s": 1}}),
    "backward from the outputs": (
        ["Q", "K", "V", None, None, "PK", "PV", i32(3)], SHARED, OUT3,
        {"x0": "[b, 1, _]", "x5": "[b, 4, m, e]", "x6": "x5"},
        {"y0": {"shape": "[b, s, 64]"}, "y1": {"shape": "[b, 4, m, e]"}}),
    "f16": ([("f16", "[b, 1, 64]"), ("f16", "K"), ("f16", "V"), None, None,
             ("f16", "[b, 4, m, 16]"), ("f16", "PV"), i32(2)], SHARED, OUT3,
            {"dtypes": {"y0": "f16", "y1": "f16", "x1": "f16", "x7": "i32"}}),
    # errors onnxruntime gives too (test_onnxruntime_rejects_what_the_rules_reject), or
    # where its CPU kernel crashes (past without presents, 5-D keys)
    "two tokens": (["[b, 2, 64]", "K", "V"], HEADS, ["y0"], "error"),
    "P fills the buffer": (self_step(8, cache=["[b, 4, 8, 16]", "PV"]), SHARED, OUT3,
                           "error"),
    "the mask over the buffer, not P + 1": (self_step(5, ("i32", "[b, 8]"), None,
                                                      cache=["[b, 4, 8, 16]", "PV"]),
                                            SHARED, OUT3, "error"),
    "past without presents": (self_step(5), SHARED, ["y0"], "error"),
    "presents without past": (["[b, 1, 64]", "K", "V"], HEADS, OUT3, "error"),
    "a cache not shared": (self_step(5), HEADS, OUT3, "error"),
    "a shared buffer without a past": (["[b, 1, 64]", "[b, 4, l, 16]", "V"], SHARED,
                                       ["y0"], "error"),
    "no past_sequence_length": (self_step(0)[:7], SHARED, OUT3, "error"),
    "attention_bias in cross attention": (["[b, 1, 64]", "[b, 4, l, 16]", "V", None, "AB"],
                                          HEADS, ["y0"], "error"),
    "5-D keys (packed KV)": (["[b, 1, 64]", "[b, l, 4, 2, 16]", "V"], HEADS, ["y0"],
                             "error"),
    "value head size not the key's": (["[b, 1, 64]", "[b, l, 64]", "[b, l, 128]"], HEADS,
                                      ["y0"], "error"),
    "packed QKV not 3 * heads * E": (["[b, 1, 200]", None, None, None, None, *CACHE, i32(0)],
                                     SHARED, OUT3, "error"),
    "packed QKV without the cache": (["[b, 1, 192]"], HEADS, ["y0"], "error"),
    "beam width 2 without cache_indirection": (self_step(1, None, None, i32(2)), SHARED,
                                               OUT3, "error"),
    "f64": ([("f64", "[b, 1, 64]"), ("f64", "K"), ("f64", "V")], HEADS, ["y0"], "error"),
    "num_heads missing": (["[b, 1, 64]", "K", "V"], {}, ["y0"], "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, attrs, outputs, want, *declared = CASES[name]
    sol = solved(inputs, attrs, outputs, *declared)
    if want == "error":
        assert sol.status == "error", {t: sol.shape(t) for t in sol.graph.tensors()}
        return
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for t, shape in want.items():
        if t == "bindings":
            assert sol.bindings == shape
        elif t == "dtypes":
            assert all(sol.dtype(x) == dt for x, dt in shape.items()), shape
        elif shape in want:
            assert sol.shape(t) == sol.shape(shape), (t, shape)
        else:
            # (`_` alone: any fresh name; `_1`: that one)
            pattern = re.sub(r"_(?![0-9])", "_[0-9]+", re.escape(shape))
            assert re.fullmatch(pattern, sol.shape(t)), (t, sol.shape(t), shape)


def f(rng, *shape, dtype=np.float32):
    return (rng.standard_normal(shape) * 0.5).astype(dtype)


def step(rng, b, n, e, m, p, beams=0, mask=False, attn=0, bias=False, dtype=np.float32):
    """A self-attention step's inputs (past_sequence_length 7 and beam_width 8 constants)."""
    d = n * e
    arrays = [f(rng, b, 1, d, dtype=dtype), f(rng, b, 1, d, dtype=dtype),
              f(rng, b, 1, d, dtype=dtype), None, None, f(rng, b, n, m, e, dtype=dtype),
              f(rng, b, n, m, e, dtype=dtype), i32(p), None, None, None]
    if mask:  # (a key kept in each row: with all masked, float32 sums at -10000 differ)
        arrays[3] = (rng.random((b, p + 1)) < 0.7).astype(np.int32)
        arrays[3][:, p] = 1
    if attn:  # 1: [1, N, 1, T]; 2: [B, 1, 1, T]
        arrays[4] = f(rng, *((1, n) if attn == 1 else (b, 1)), 1, p + 1, dtype=dtype)
    if beams:
        arrays[8] = i32(beams)
        arrays[9] = rng.integers(0, beams, (b // beams, beams, m)).astype(np.int32)
    if bias:
        arrays[10] = f(rng, 3 * d, dtype=dtype)
    return arrays


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3), e=st.sampled_from([2, 4, 8]),
       m=st.integers(1, 6), beams=st.sampled_from([0, 1, 2, 3]), data=st.data(),
       mask=st.booleans(), attn=st.sampled_from([0, 1, 2]), bias=st.booleans(),
       f16=st.booleans())
def test_self_attention_matches_onnxruntime(seed, n, e, m, beams, data, mask, attn, bias,
                                            f16):
    rng = np.random.default_rng(seed)
    b = data.draw(st.sampled_from([1, 2]) if beams < 2 else st.just(2 * beams))
    p = data.draw(st.integers(0, m - 1))
    if beams and attn == 2:  # (onnxruntime reads [B, 1, 1, T] out of bounds with beams)
        attn = 1
    scale = data.draw(st.sampled_from([{}, {"scale": 0.3}]))
    arrays = step(rng, b, n, e, m, p, beams, mask, attn, bias,
                  np.float16 if f16 else np.float32)
    tol = 1e-2 if f16 else 1e-4
    assert check_against_onnxruntime(OP, arrays, {**SHARED, "num_heads": n, **scale}, 3,
                                     const=(7, 8), rtol=tol, atol=tol) is not None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3), e=st.sampled_from([2, 4, 8]),
       length=st.integers(1, 5), heads_4d=st.booleans(), mask=st.booleans(),
       bias=st.booleans(), beams=st.booleans())
def test_cross_attention_matches_onnxruntime(seed, n, e, length, heads_4d, mask, bias,
                                             beams):
    # keys and values are the cache, read in heads as they lie in memory (a 3-D key
    # [B, 1, D] of one position is the same thing)
    rng = np.random.default_rng(seed)
    b, d = 2, n * e
    kv = (b, n, length, e) if heads_4d else (b, 1, d)
    arrays = [f(rng, b, 1, d), f(rng, *kv), f(rng, *kv), None, None, None, None, None,
              None, None, f(rng, 3 * d) if bias else None]
    if mask:
        arrays[3] = (rng.random((b, kv[2] if heads_4d else 1)) < 0.7).astype(np.int32)
        arrays[3][:, 0] = 1
    if beams:  # (read in self-attention only)
        arrays[8], arrays[9] = i32(2), np.zeros((1, 2, 3), np.int32)
    assert check_against_onnxruntime(OP, arrays, {"num_heads": n}, 1, const=(8,)) is not None


def ort_typed(arrays, attrs, outputs):
    """onnxruntime's outputs with qk (output 3) declared float32 (its type is not inferred)
    and the absent outputs ("") left out."""
    import onnxruntime as ort

    names, inputs, feeds = [], [], {}
    for k, a in enumerate(arrays):
        names.append("" if a is None else f"x{k}")
        if a is not None:
            elem = helper.np_dtype_to_tensor_dtype(a.dtype)
            inputs.append(helper.make_tensor_value_info(f"x{k}", elem, list(a.shape)))
            feeds[f"x{k}"] = a
    outs = [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) if o == "y3" else
            helper.make_empty_tensor_value_info(o) for o in outputs if o]
    node = helper.make_node(OP, names, list(outputs), domain=MS, **attrs)
    model = helper.make_model(helper.make_graph([node], "g", inputs, outs),
                              opset_imports=[helper.make_opsetid("", 21),
                                             helper.make_opsetid(MS, 1)])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


@pytest.mark.parametrize("cross", [False, True])
def test_qk_matches_onnxruntime(cross):
    # the scaled scores before the softmax, attention_bias and the mask added: [B, heads,
    # 1, T]; the rules give its shape from the inputs' (P from its value)
    rng = np.random.default_rng(3)
    if cross:
        arrays = [f(rng, 2, 1, 16), f(rng, 2, 2, 5, 8), f(rng, 2, 2, 5, 8),
                  (rng.random((2, 5)) < 0.7).astype(np.int32)]
        attrs, outputs = {"num_heads": 2, "output_qk": 1}, CROSS_QK
    else:
        arrays = step(rng, 4, 2, 8, 6, 3, beams=2, mask=True, attn=1, bias=True)
        attrs, outputs = {**SHARED, "num_heads": 2, "output_qk": 1}, OUT3 + ["y3"]
    want = ort_typed(arrays, attrs, outputs)
    got = [g for g in load_kernel(OP)(attrs, n_outputs=4, domain=MS)(*arrays) if g is not None]
    shapes = [None if a is None else a if k in (7, 8) else ("f32" if a.dtype == np.float32
              else "i32", list(a.shape)) for k, a in enumerate(arrays)]
    sol = solved(shapes, attrs, outputs)
    for o, g, w in zip([o for o in outputs if o], got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (o, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-3, err_msg=o)
        assert sol.shape(o) == str(list(w.shape)), (o, sol.shape(o), w.shape)


def test_packed_qkv_matches_onnxruntime_unpacked():
    # onnxruntime's CPU kernel refuses packed QKV [B, 1, 3 * D] (its CUDA kernel reads the
    # thirds as query, key and value): against the same step unpacked
    rng = np.random.default_rng(4)
    arrays = step(rng, 2, 2, 8, 5, 2, mask=True, attn=1, bias=True)
    packed = [np.concatenate(arrays[:3], axis=-1), None, None] + arrays[3:]
    assert onnxruntime_verdict(OP, packed, SHARED, 3) == "rejected"
    want = check_against_onnxruntime(OP, arrays, {**SHARED, "num_heads": 2}, 3, const=(7,))
    got = load_kernel(OP)({**SHARED, "num_heads": 2}, n_outputs=3, domain=MS)(*packed)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
    shapes = [None if a is None else a if k == 7 else ("i32" if a.dtype == np.int32 else
              "f32", list(a.shape)) for k, a in enumerate(packed)]
    sol = solved(shapes, {**SHARED, "num_heads": 2}, OUT3)
    assert [sol.shape(o) for o in OUT3] == [str(list(w.shape)) for w in want]


def test_the_token_goes_at_position_p():
    # the present is the past with the new key and value at P; the rest as it was
    rng = np.random.default_rng(5)
    arrays = step(rng, 2, 2, 4, 6, 3)
    _, pk, pv = check_against_onnxruntime(OP, arrays, {**SHARED, "num_heads": 2}, 3,
                                          const=(7,))
    keep = np.arange(6) != 3
    np.testing.assert_array_equal(pk[:, :, keep], arrays[5][:, :, keep])
    np.testing.assert_array_equal(pv[:, :, 3], arrays[2].reshape(2, 2, 4))


@pytest.mark.parametrize("change", [
    {"q": (2, 2, 8)}, {"q": (2, 1, 9)}, {"k": (2, 1, 12)}, {"k": (2, 1, 2, 4)},
    {"v": None}, {"past_key": (2, 3, 6, 4)}, {"past_key": (2, 2, 6, 2)},
    {"past_key": (2, 2, 5, 4)}, {"past_key": (1, 2, 6, 4)}, {"attrs": {"num_heads": 2}},
    {"plen": None}, {"plen": i32(6)}, {"plen": i32(-1)}, {"plen": i32([3, 3])},
    {"mask": (2, 6)}, {"mask": (2,)}, {"attn": (1, 2, 1, 6)}, {"attn": (2, 2, 2, 4)},
    {"attn": (3, 2, 1, 4)}, {"bias": (25,)}, {"beam_width": i32(2)},
    {"beam_width": i32(2), "ci": (1, 2, 5)}, {"ci": (1, 3, 6)}, {"ci": (2, 6)},
    {"v": (2, 1, 16)}, {"attrs": {"num_heads": 0, "past_present_share_buffer": 1}},
    {"dtype": np.float64},
])
def test_onnxruntime_rejects_what_the_rules_reject(change):
    # (not here, as onnxruntime's CPU kernel crashes on them: past without both presents,
    # 5-D keys or query; the rules reject them: test_case)
    rng = np.random.default_rng(6)
    dt = change.get("dtype", np.float32)
    shapes = {"q": (2, 1, 8), "k": (2, 1, 8), "v": (2, 1, 8), "past_key": (2, 2, 6, 4),
              "past_value": (2, 2, 6, 4), "mask": None, "attn": None, "bias": None,
              "ci": None, **change}
    arrays = [None if shapes[k] is None else f(rng, *shapes[k], dtype=dt)
              for k in ("q", "k", "v", "mask", "attn", "past_key", "past_value")]
    if arrays[3] is not None:
        arrays[3] = np.ones(shapes["mask"], np.int32)
    ci = None if shapes["ci"] is None else np.zeros(shapes["ci"], np.int32)
    bias = None if shapes["bias"] is None else f(rng, *shapes["bias"], dtype=dt)
    arrays += [change.get("plen", i32(3)), change.get("beam_width"), ci, bias]
    attrs = change.get("attrs", {"num_heads": 2, "past_present_share_buffer": 1})
    assert check_against_onnxruntime(OP, arrays, attrs, 3, const=(7, 8)) is None, change
