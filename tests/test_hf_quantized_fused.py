"""A BERT as onnxruntime documents quantizing one: its transformer optimizer fuses it
(Attention, EmbedLayerNormalization, SkipLayerNormalization, BiasGelu), then
quantize_dynamic turns the fused nodes into QAttention and QEmbedLayerNormalization and
the products into DynamicQuantizeLinear and MatMulInteger. We solve it with every dim
symbolic and determined, onnxruntime's at two input sizes, and our executor runs it to
onnxruntime's outputs. Skipped where torch or transformers is not installed."""
import os
import sys

import onnx
import pytest

from shape_logic import solve

from .onnx_graphs import assert_every_dim_determined, assert_runtime_shapes, assert_same_outputs

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime.transformers.optimizer")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import hf_models  # noqa: E402


def test_bert_fused_then_dynamically_quantized(tmp_path):
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.shape_inference import quant_pre_process

    model, feeds, model_type = hf_models.bert()
    fused = hf_models.fused(model, model_type)
    # (the optimizer leaves its domain undeclared; the quantizers' shape inference needs it)
    fused.opset_import.append(onnx.helper.make_opsetid("com.microsoft", 1))
    onnx.save(fused, tmp_path / "fused.onnx")
    quant_pre_process(str(tmp_path / "fused.onnx"), str(tmp_path / "pre.onnx"),
                      skip_optimization=True)
    quantize_dynamic(tmp_path / "pre.onnx", tmp_path / "q.onnx", weight_type=QuantType.QInt8)
    q = onnx.load(tmp_path / "q.onnx")
    del q.graph.value_info[:]  # (what the pre-processing inferred: ours is asked)
    ops = {n.op_type for n in q.graph.node if n.domain == "com.microsoft"}
    assert {"QAttention", "QEmbedLayerNormalization"} <= ops
    sol = solve(q)
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    assert_every_dim_determined(sol)
    for feed in feeds:
        assert_runtime_shapes(q, sol, feed)
    # (DynamicQuantizeLinear rounds x/scale to int8, where float32 sums taken in another
    # order can move one value a step: one of the output's 672 elements was 1.2e-4 off in
    # one full parallel run of the suite, and equal run alone)
    assert_same_outputs(q, feeds, atol=1e-3)
