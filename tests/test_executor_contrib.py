"""The executor runs onnxruntime's com.microsoft contrib ops with our kernels: models
shaped like what onnxruntime's transformer optimizer emits (BERT-like and a GQA decoder
step) give onnxruntime's outputs; an operator of a domain we have no kernel for is a
one-line input error (exit 2)."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import shape_logic
from shape_logic.cli import main

from .contrib_ops import gqa_lengths

MS = "com.microsoft"
F = TensorProto.FLOAT
RNG = np.random.default_rng(0)


def weight(name, *shape):
    return numpy_helper.from_array((RNG.standard_normal(shape) * 0.2).astype(np.float32), name)


def model(nodes, inputs, outputs, inits):
    graph = helper.make_graph(nodes, "contrib", inputs, [helper.make_tensor_value_info(
        o, F, None) for o in outputs], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                helper.make_opsetid(MS, 1)])
    m.ir_version = 8
    return m


def bert_like():
    """EmbedLayerNormalization -> Attention -> SkipLayerNormalization -> MatMul -> BiasGelu
    -> MatMul -> FastGelu -> Gelu -> MultiHeadAttention (cross) -> RotaryEmbedding."""
    h = 16
    nodes = [
        helper.make_node("EmbedLayerNormalization", ["ids", "seg", "wemb", "pemb", "semb",
                                                     "g", "b", "mask"], ["e", "mi"],
                         domain=MS, epsilon=1e-5),
        helper.make_node("Attention", ["e", "wqkv", "bqkv", "mi"], ["a"], domain=MS,
                         num_heads=2),
        helper.make_node("SkipLayerNormalization", ["a", "e", "g", "b"], ["n"], domain=MS,
                         epsilon=1e-5),
        helper.make_node("MatMul", ["n", "w1"], ["m1"]),
        helper.make_node("BiasGelu", ["m1", "b1"], ["g1"], domain=MS),
        helper.make_node("MatMul", ["g1", "w2"], ["m2"]),
        helper.make_node("FastGelu", ["m2", "b"], ["g2"], domain=MS),
        helper.make_node("Gelu", ["g2"], ["g3"], domain=MS),
        helper.make_node("MultiHeadAttention", ["g3", "n", "e"], ["c"], domain=MS,
                         num_heads=2),
        helper.make_node("RotaryEmbedding", ["c", "pos", "cos", "sin"], ["y"], domain=MS,
                         num_heads=2),
    ]
    i32 = TensorProto.INT32
    inputs = [helper.make_tensor_value_info("ids", i32, ["b", "s"]),
              helper.make_tensor_value_info("seg", i32, ["b", "s"]),
              helper.make_tensor_value_info("mask", i32, ["b", "s"]),
              helper.make_tensor_value_info("pos", TensorProto.INT64, ["b", "s"])]
    inits = [weight("wemb", 20, h), weight("pemb", 8, h), weight("semb", 2, h),
             weight("g", h), weight("b", h), weight("wqkv", h, 3 * h), weight("bqkv", 3 * h),
             weight("w1", h, 32), weight("b1", 32), weight("w2", 32, h),
             weight("cos", 8, 4), weight("sin", 8, 4)]
    b, s = 2, 5
    feeds = {"ids": RNG.integers(0, 20, (b, s)).astype(np.int32),
             "seg": RNG.integers(0, 2, (b, s)).astype(np.int32),
             "mask": np.array([[1] * 5, [1, 1, 1, 0, 0]], np.int32),
             "pos": np.tile(np.arange(s), (b, 1)).astype(np.int64)}
    return model(nodes, inputs, ["y", "m2"], inits), feeds


def gqa_step():
    """One decoding step: a packed QKV projection, GroupQueryAttention with rotary over a
    past of 3, total_sequence_length from the attention mask's shape."""
    nodes = [
        helper.make_node("MatMul", ["x", "wqkv"], ["qkv"]),
        *gqa_lengths(),
        helper.make_node("GroupQueryAttention", ["qkv", "", "", "pk", "pv", "seqlens", "tot",
                                                 "cos", "sin"], ["y", "prk", "prv"],
                         domain=MS, num_heads=4, kv_num_heads=2, do_rotary=1),
    ]
    inputs = [helper.make_tensor_value_info("x", F, ["b", 1, 32]),
              helper.make_tensor_value_info("mask", TensorProto.INT64, ["b", "t"]),
              helper.make_tensor_value_info("pk", F, ["b", 2, "p", 16]),
              helper.make_tensor_value_info("pv", F, ["b", 2, "p", 16])]
    inits = [weight("wqkv", 32, 128), numpy_helper.from_array(np.array([1], np.int64), "one"),
             weight("cos", 16, 8), weight("sin", 16, 8)]
    f = lambda *s: (RNG.standard_normal(s) * 0.5).astype(np.float32)  # noqa: E731
    feeds = {"x": f(2, 1, 32), "mask": np.ones((2, 4), np.int64), "pk": f(2, 2, 3, 16),
             "pv": f(2, 2, 3, 16)}
    return model(nodes, inputs, ["y", "prk", "prv"], inits), feeds


def ort_run(m, feeds):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return dict(zip(names, sess.run(None, feeds)))


@pytest.mark.parametrize("build", [bert_like, gqa_step])
def test_contrib_model_runs_like_onnxruntime(build):
    m, feeds = build()
    want = ort_run(m, feeds)
    got = shape_logic.run(m, feeds)
    assert set(got) == set(want)
    for name in want:
        assert got[name].shape == want[name].shape, name
        np.testing.assert_allclose(got[name], want[name], rtol=1e-3, atol=1e-4, err_msg=name)


def test_gqa_shapes_are_solved_in_the_model():
    sol = shape_logic.solve(gqa_step()[0])
    assert sol.status == "ok"
    assert sol.shape("y") == "[b, 1, 64]"
    # total_sequence_length is a symbolic length (the mask's t) cast to int32: followed
    # through the narrowing (dims are below 2^24), the present's length is max(past, total)
    assert sol.shape("prk") == sol.shape("prv") == "[b, 2, max(p, t), 16]"


@pytest.mark.parametrize("op, domain, needle", [
    ("Frobnicate", MS, "Frobnicate of domain 'com.microsoft': no kernel"),
    ("Relu", MS, "Relu of domain 'com.microsoft': no kernel"),
    ("Relu", "org.example", "Relu of domain 'org.example': no kernel"),
    ("BiasGelu", "", "BiasGelu of domain 'ai.onnx': no kernel"),
])
def test_unknown_domain_or_op_is_one_line_exit_2(tmp_path, capsys, op, domain, needle):
    node = helper.make_node(op, ["x"] * (2 if op == "BiasGelu" else 1), ["y"], domain=domain)
    m = model([node], [helper.make_tensor_value_info("x", F, [2])], ["y"], [])
    if domain not in ("", MS):
        m.opset_import.append(helper.make_opsetid(domain, 1))
    path = tmp_path / "m.onnx"
    path.write_bytes(m.SerializeToString())
    np.save(tmp_path / "x.npy", np.ones(2, np.float32))
    assert main(["run", str(path), "--input", f"x={tmp_path / 'x.npy'}"]) == 2
    err = capsys.readouterr().err
    assert needle in err, err
    assert "Traceback" not in err and err.count("\n") == 1
