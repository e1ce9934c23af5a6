"""Writes examples/tiny_mlp.onnx: a two-layer perceptron with a symbolic batch, the ONNX
model of docs/TOUR.md. Run: python examples/make_tiny_onnx.py"""
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save


def tiny_mlp():
    rng = np.random.default_rng(0)
    weights = [numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
               for name, shape in (("w1", (16, 32)), ("b1", (32,)), ("w2", (32, 10)),
                                   ("b2", (10,)))]
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
        helper.make_node("Add", ["h", "b1"], ["hb"], name="bias1"),
        helper.make_node("Relu", ["hb"], ["a"], name="relu"),
        helper.make_node("MatMul", ["a", "w2"], ["z"], name="fc2"),
        helper.make_node("Add", ["z", "b2"], ["logits"], name="bias2"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])
    probs = helper.make_tensor_value_info("probs", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "tiny_mlp", [x], [probs], initializer=weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


if __name__ == "__main__":
    out = Path(__file__).resolve().parent / "tiny_mlp.onnx"
    save(tiny_mlp(), str(out))
    print(f"wrote {out}")
