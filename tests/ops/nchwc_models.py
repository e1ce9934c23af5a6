"""Whole models through onnxruntime's NCHWc transformer (com.microsoft.nchwc): built plain,
optimized by onnxruntime (ORT_ENABLE_ALL, its optimized model saved), solved by our rules
and run by our executor. MLAS's block (8, or 16 with AVX512F) is learned from onnxruntime
(the padded filter of a 3 -> 8 channel Conv) and handed to our kernels (nchwc.BLOCK)."""
from __future__ import annotations

import os
import tempfile
from functools import cache

import numpy as np
import pytest
import onnx
from onnx import TensorProto, helper, numpy_helper

import shape_logic
from shape_logic.kernels import nchwc
from shape_logic.symbolic.expr import Expr

NCHWC = "com.microsoft.nchwc"
RNG = np.random.default_rng(0)


def weight(*shape):
    return (RNG.standard_normal(shape) * 0.3).astype(np.float32)


def plain_model(nodes, inits, channels=3, opset=13):
    """x [n, channels, h, w] through `nodes` to y."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", channels, "h", "w"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "g", [x], [y], [numpy_helper.from_array(v, k)
                                                     for k, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _session(model, level):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = level
    return so


def optimize(model) -> onnx.ModelProto:
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "opt.onnx")
        so = _session(model, ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
        so.optimized_model_filepath = path
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return onnx.load(path)


def ort_run(model, feeds, outputs=None):
    import onnxruntime as ort

    so = _session(model, ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    return dict(zip(outputs or [o.name for o in sess.get_outputs()], sess.run(outputs, feeds)))


@cache
def learned_block() -> int:
    """MLAS's NCHWc block, from onnxruntime: a 3 -> 8 channel Conv's filter, padded."""
    m = optimize(plain_model([helper.make_node("Conv", ["x", "w"], ["y"])],
                             {"w": weight(8, 3, 1, 1)}))
    conv = next((n for n in m.graph.node if n.domain == NCHWC and n.op_type == "Conv"), None)
    if conv is None:  # (MLAS has no NCHWc kernels on this CPU: onnxruntime makes none)
        pytest.skip("onnxruntime's NCHWc transformer makes no NCHWc nodes on this machine")
    w = next(i for i in m.graph.initializer if i.name == conv.input[1])
    return int(w.dims[0])


def check_model(nodes, inits, sizes=((2, 9, 11), (1, 16, 13)), channels=3, opset=13,
                want_ops=("Conv",), open_ok=()):
    """The optimized model holds NCHWc nodes of `want_ops`; every tensor's solved shape
    (symbolic n, h, w) equals onnxruntime's at each of `sizes`, but for the dims a fresh
    name holds, allowed on the tensors `open_ok` names (a ReorderInput's padded channels
    with no Conv reading them); our executor gives the original model's outputs."""
    nchwc.BLOCK = learned_block()
    plain = plain_model(nodes, inits, channels, opset)
    opt = optimize(plain)
    made = {n.op_type for n in opt.graph.node if n.domain == NCHWC}
    assert set(want_ops) <= made, (want_ops, made)
    sol = shape_logic.solve(opt)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    tensors = [t for n in opt.graph.node for t in n.output if t]
    probe = onnx.ModelProto()
    probe.CopyFrom(opt)
    del probe.graph.output[:]
    probe.graph.output.extend(helper.make_empty_tensor_value_info(t) for t in tensors)
    open_dims = set()
    for n, h, w in sizes:
        x = RNG.standard_normal((n, channels, h, w)).astype(np.float32)
        env = {"n": Expr.const(n), "h": Expr.const(h), "w": Expr.const(w)}
        shapes = {t: a.shape for t, a in ort_run(probe, {"x": x}, tensors).items()}
        for t in tensors:
            dims = sol.dims(t)
            assert dims is not None and len(dims) == len(shapes[t]), (t, dims, shapes[t])
            for i, d in enumerate(dims):
                if any(s.startswith("_") for s in d.symbols()):
                    open_dims.add((t, i))
                    continue
                assert d.subs(env) == shapes[t][i], (t, i, str(d), shapes[t])
        want = ort_run(plain, {"x": x})["y"]
        got = shape_logic.run(opt, {"x": x})["y"]
        assert got.shape == want.shape and got.dtype == want.dtype
        scale = max(1.0, float(np.abs(want).max()))
        np.testing.assert_allclose(got / scale, want / scale, rtol=1e-4, atol=1e-5)
    assert {t for t, _ in open_dims} <= set(open_ok), open_dims
    return opt, sol
