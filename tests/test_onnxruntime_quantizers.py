"""Models as onnxruntime's quantization tools and its optimizer write them:
MatMulNBitsQuantizer (int4, int8 MatMulNBits), quantize_dynamic then onnxruntime's own
optimizer (DynamicQuantizeMatMul), quantize_dynamic of an LSTM (DynamicQuantizeLSTM),
quantize_static in the QOperator format (QLinearConv, QLinearSigmoid, QLinearAdd,
QLinearMul, QLinearConcat, QLinearGlobalAveragePool; QGemm, QLinearSoftmax,
QLinearAveragePool, QLinearLeakyRelu), quantize_static in the QDQ format with 16-bit
activations (com.microsoft's QuantizeLinear and DequantizeLinear), and the optimizer's
saved model of a CNN (FusedConv, with a residual sum, FusedGemm). Each solves with
symbolic input dims, every operator known, and runs like onnxruntime."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import shape_logic

pytest.importorskip("onnxruntime.quantization")
RNG = np.random.default_rng(0)


def model(nodes, x_shape, inits):
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                         x_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def mlp():
    w = lambda *s: (RNG.standard_normal(s) * 0.1).astype(np.float32)  # noqa: E731
    nodes = [helper.make_node("MatMul", ["x", "W1"], ["h"]), helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("MatMul", ["r", "W2"], ["y"])]
    return model(nodes, ["b", "s", 64], {"W1": w(64, 128), "W2": w(128, 64)})


def convnet():
    nodes = [helper.make_node("Conv", ["x", "W"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Sigmoid", ["c"], ["s"]), helper.make_node("Add", ["c", "s"], ["a"]),
             helper.make_node("Mul", ["a", "c"], ["m"]),
             helper.make_node("Concat", ["a", "m"], ["cat"], axis=1),
             helper.make_node("GlobalAveragePool", ["cat"], ["y"])]
    w = (RNG.standard_normal((8, 3, 3, 3)) * 0.2).astype(np.float32)
    return model(nodes, ["n", 3, "h", "w"], {"W": w})


def nbits(tmp_path, bits):
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    quantizer = MatMulNBitsQuantizer(mlp(), bits=bits, block_size=32, is_symmetric=False)
    quantizer.process()
    return quantizer.model.model


def dynamic_then_optimized(tmp_path):
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    onnx.save(mlp(), tmp_path / "mlp.onnx")
    quantize_dynamic(tmp_path / "mlp.onnx", tmp_path / "dyn.onnx", weight_type=QuantType.QInt8)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = str(tmp_path / "opt.onnx")
    ort.InferenceSession(str(tmp_path / "dyn.onnx"), so, providers=["CPUExecutionProvider"])
    return onnx.load(tmp_path / "opt.onnx")


def classifier():
    """Conv, LeakyRelu, AveragePool, a residual Add and Relu, then Gemm and Softmax."""
    w = lambda *s: (RNG.standard_normal(s) * 0.2).astype(np.float32)  # noqa: E731
    nodes = [helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("LeakyRelu", ["c"], ["l"], alpha=0.1),
             helper.make_node("AveragePool", ["l"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["p", "W2", "B2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "p"], ["res"]),
             helper.make_node("Relu", ["res"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "W3", "B3"], ["h"], transB=1),
             helper.make_node("Relu", ["h"], ["hr"]),
             helper.make_node("Gemm", ["hr", "W4", "B4"], ["o"], transB=1),
             helper.make_node("Softmax", ["o"], ["y"], axis=-1)]
    return model(nodes, ["n", 3, "h", "w"], {"W": w(8, 3, 3, 3), "B": w(8), "W2": w(8, 8, 3, 3),
                                             "B2": w(8), "W3": w(16, 8), "B3": w(16),
                                             "W4": w(10, 16), "B4": w(10)})


def saved_by_optimizer(tmp_path):
    import onnxruntime as ort

    onnx.save(classifier(), tmp_path / "net.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = str(tmp_path / "opt.onnx")
    ort.InferenceSession(str(tmp_path / "net.onnx"), so, providers=["CPUExecutionProvider"])
    return onnx.load(tmp_path / "opt.onnx")


def dynamic_lstm(tmp_path):
    from onnxruntime.quantization import QuantType, quantize_dynamic

    w = lambda *s: (RNG.standard_normal(s) * 0.3).astype(np.float32)  # noqa: E731
    nodes = [helper.make_node("LSTM", ["x", "W", "R", "B"], ["y"], hidden_size=16)]
    onnx.save(model(nodes, ["s", "b", 8], {"W": w(1, 64, 8), "R": w(1, 64, 16),
                                           "B": w(1, 128)}), tmp_path / "lstm.onnx")
    quantize_dynamic(tmp_path / "lstm.onnx", tmp_path / "dyn.onnx", weight_type=QuantType.QInt8)
    return onnx.load(tmp_path / "dyn.onnx")


def qoperator(tmp_path, net=convnet, **options):
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)

    class Calibration(CalibrationDataReader):
        def __init__(self):
            self.feeds = iter([{"x": RNG.standard_normal((1, 3, 8, 8)).astype(np.float32)}
                               for _ in range(4)])

        def get_next(self):
            return next(self.feeds, None)

    onnx.save(net(), tmp_path / "net.onnx")
    quantize_static(tmp_path / "net.onnx", tmp_path / "q.onnx", Calibration(),
                    **({"quant_format": QuantFormat.QOperator, "activation_type":
                        QuantType.QUInt8, "weight_type": QuantType.QInt8} | options))
    return onnx.load(tmp_path / "q.onnx")


def qdq_contrib(tmp_path):
    """QDQ with 16-bit activations as com.microsoft's QuantizeLinear and DequantizeLinear
    (onnx's take 16 bits from opset 21 only)."""
    from onnxruntime.quantization import QuantFormat, QuantType

    return qoperator(tmp_path, classifier, quant_format=QuantFormat.QDQ,
                     activation_type=QuantType.QUInt16, weight_type=QuantType.QInt8,
                     extra_options={"UseQDQContribOps": True})


CASES = {
    "int4 MatMulNBits": (lambda p: nbits(p, 4), {"MatMulNBits"}, "[b, s, 64]", (2, 3, 64)),
    "int8 MatMulNBits": (lambda p: nbits(p, 8), {"MatMulNBits"}, "[b, s, 64]", (2, 3, 64)),
    "DynamicQuantizeMatMul": (dynamic_then_optimized, {"DynamicQuantizeMatMul"}, "[b, s, 64]",
                              (2, 3, 64)),
    "QOperator": (qoperator, {"QLinearSigmoid", "QLinearAdd", "QLinearMul", "QLinearConcat",
                              "QLinearGlobalAveragePool"}, "[n, 16, 1, 1]", (2, 3, 8, 8)),
    # (onnxruntime's QLinearSoftmax and QLinearLeakyRelu use lookup tables: one step of the
    # output's rounding apart at most, here 1/256)
    "QOperator classifier": (lambda p: qoperator(p, classifier),
                             {"QGemm", "QLinearSoftmax", "QLinearAveragePool",
                              "QLinearLeakyRelu"}, "[n, 10]", (2, 3, 8, 8), 0.005),
    "optimizer's saved model": (saved_by_optimizer, {"FusedConv", "FusedGemm"}, "[n, 10]",
                                (2, 3, 8, 10)),
    "QDQ, 16-bit, com.microsoft": (qdq_contrib, {"QuantizeLinear", "DequantizeLinear"},
                                   "[n, 10]", (2, 3, 8, 8), 1e-4),
    # (onnxruntime quantizes the LSTM's input and state as it runs: ours dequantizes only
    # the weights)
    "DynamicQuantizeLSTM": (dynamic_lstm, {"DynamicQuantizeLSTM"}, "[s, 1, b, 16]", (5, 2, 8),
                            0.02),
}


@pytest.mark.parametrize("name", CASES)
def test_quantized_model_solves_and_runs_like_onnxruntime(tmp_path, name):
    import onnxruntime as ort

    build, contrib_ops, y_shape, x_shape, *tolerance = CASES[name]
    m = build(tmp_path)
    assert contrib_ops <= {n.op_type for n in m.graph.node if n.domain == "com.microsoft"}
    sol = shape_logic.solve(m)
    assert sol.status == "ok" and not sol.warnings, ([d.to_text() for d in sol.diagnostics],
                                                     sol.warnings)
    assert sol.shape("y") == y_shape
    x = RNG.standard_normal(x_shape).astype(np.float32)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    (want,) = ort.InferenceSession(m.SerializeToString(), so,
                                   providers=["CPUExecutionProvider"]).run(None, {"x": x})
    got = shape_logic.run(m, {"x": x})["y"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=tolerance[0] if tolerance else 1e-5)
