"""A decoder layer of an int4 LLM as onnxruntime-genai's builder writes it: a block-quantized
embedding (GatherBlockQuantized), RMSNorm (SimplifiedLayerNormalization, ONNX's domain),
MatMulNBits projections, GroupQueryAttention with rotary over a past, the residual through
SkipSimplifiedLayerNormalization, a SiLU MLP. Solved with symbolic batch, sequence and past
lengths, and run like onnxruntime."""
import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import shape_logic

from .contrib_ops import gqa_lengths

MS = "com.microsoft"
F, I64 = TensorProto.FLOAT, TensorProto.INT64
RNG = np.random.default_rng(0)
HIDDEN, HEADS, KV_HEADS, HEAD = 32, 4, 2, 16  # (rotary wants heads of 16s)
VOCAB, INTER, BLOCK = 20, 48, 16


def init(name, array):
    return numpy_helper.from_array(array, name)


def quantized_linear(name, x, y, k, n, zero_points):
    """A MatMulNBits node and its 4-bit weights ([N, k_blocks, 8] blobs, scales, packed zero
    points or none: 8 by default)."""
    blocks = -(-k // BLOCK)
    inits = [init(f"{name}.qweight", RNG.integers(0, 256, (n, blocks, 8)).astype(np.uint8)),
             init(f"{name}.scales", (RNG.random((n, blocks)) * 0.05).astype(np.float32))]
    inputs = [x, f"{name}.qweight", f"{name}.scales"]
    if zero_points:
        inits.append(init(f"{name}.zp", RNG.integers(0, 256, (n, -(-blocks // 2))).astype(
            np.uint8)))
        inputs.append(f"{name}.zp")
    node = helper.make_node("MatMulNBits", inputs, [y], name=name, domain=MS, K=k, N=n,
                            bits=4, block_size=BLOCK, accuracy_level=0)
    return [node], inits


def layer_model():
    qkv = (HEADS + 2 * KV_HEADS) * HEAD
    nodes = [
        helper.make_node("GatherBlockQuantized", ["embed.q", "ids", "embed.scales"], ["e"],
                         domain=MS, block_size=BLOCK, gather_axis=0, quantize_axis=1),
        helper.make_node("SimplifiedLayerNormalization", ["e", "ln1.weight"], ["n1"],
                         axis=-1, epsilon=1e-5, stash_type=1),
        # the attention's lengths from the mask, as the builder computes them
        *gqa_lengths(),
        helper.make_node("GroupQueryAttention", ["qkv", "", "", "past_key", "past_value",
                                                 "seqlens", "tot", "cos", "sin"],
                         ["attn", "present_key", "present_value"], domain=MS,
                         num_heads=HEADS, kv_num_heads=KV_HEADS, do_rotary=1),
        helper.make_node("SkipSimplifiedLayerNormalization", ["o", "e", "ln2.weight"],
                         ["n2", "", "", "residual"], domain=MS, epsilon=1e-5),
        helper.make_node("Sigmoid", ["gate"], ["gate_sig"]),
        helper.make_node("Mul", ["gate", "gate_sig"], ["silu"]),
        helper.make_node("Mul", ["silu", "up"], ["act"]),
        helper.make_node("Add", ["residual", "down"], ["hidden"]),
    ]
    inits = [init("embed.q", RNG.integers(-8, 8, (VOCAB, HIDDEN)).astype(ml_dtypes.int4)),
             init("embed.scales", (RNG.random((VOCAB, HIDDEN // BLOCK)) * 0.2 + 0.05).astype(
                 np.float32)),
             init("ln1.weight", (RNG.random(HIDDEN) + 0.5).astype(np.float32)),
             init("ln2.weight", (RNG.random(HIDDEN) + 0.5).astype(np.float32)),
             init("one", np.array([1], np.int64)),
             init("cos", RNG.standard_normal((16, HEAD // 2)).astype(np.float32)),
             init("sin", RNG.standard_normal((16, HEAD // 2)).astype(np.float32))]
    for name, x, y, k, n, zp in [("qkv_proj", "n1", "qkv", HIDDEN, qkv, True),
                                 ("o_proj", "attn", "o", HEADS * HEAD, HIDDEN, False),
                                 ("gate_proj", "n2", "gate", HIDDEN, INTER, True),
                                 ("up_proj", "n2", "up", HIDDEN, INTER, False),
                                 ("down_proj", "act", "down", INTER, HIDDEN, True)]:
        more_nodes, more_inits = quantized_linear(name, x, y, k, n, zp)
        nodes += more_nodes
        inits += more_inits
    past = ["batch", KV_HEADS, "past", HEAD]
    inputs = [helper.make_tensor_value_info("ids", I64, ["batch", "seq"]),
              helper.make_tensor_value_info("mask", I64, ["batch", "total"]),
              helper.make_tensor_value_info("past_key", F, past),
              helper.make_tensor_value_info("past_value", F, past)]
    outputs = [helper.make_tensor_value_info(o, F, None)
               for o in ("hidden", "present_key", "present_value")]
    graph = helper.make_graph(nodes, "int4_layer", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21),
                                                    helper.make_opsetid(MS, 1)])
    model.ir_version = 10
    return model


def test_the_layer_solves_with_symbolic_lengths():
    sol = shape_logic.solve(layer_model())
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert not sol.warnings, sol.warnings  # every operator has a rule file
    assert sol.shape("e") == sol.shape("n1") == f"[batch, seq, {HIDDEN}]"
    assert sol.shape("qkv") == f"[batch, seq, {(HEADS + 2 * KV_HEADS) * HEAD}]"
    assert sol.shape("gate") == f"[batch, seq, {INTER}]"
    assert sol.shape("hidden") == sol.shape("residual") == f"[batch, seq, {HIDDEN}]"
    assert sol.shape("present_key") == f"[batch, {KV_HEADS}, max(past, total), {HEAD}]"


def ort_run(model, feeds):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    return dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))


@pytest.mark.parametrize("batch, seq, past", [(2, 1, 3), (1, 4, 0), (1, 3, 5)])
def test_the_layer_runs_like_onnxruntime(batch, seq, past):
    # a decoding step (one token over a past), a first prompt (no past), a later prompt
    # (onnxruntime takes one of batch 1 only)
    model = layer_model()
    rng = np.random.default_rng(batch * 10 + seq)
    cache = (batch, KV_HEADS, past, HEAD)
    feeds = {"ids": rng.integers(0, VOCAB, (batch, seq)).astype(np.int64),
             "mask": np.ones((batch, past + seq), np.int64),
             "past_key": rng.standard_normal(cache).astype(np.float32),
             "past_value": rng.standard_normal(cache).astype(np.float32)}
    want = ort_run(model, feeds)
    got = shape_logic.run(model, feeds)
    assert set(got) == set(want)
    for name, w in want.items():
        assert got[name].shape == w.shape, name
        np.testing.assert_allclose(got[name], w, rtol=1e-3, atol=1e-4, err_msg=name)
