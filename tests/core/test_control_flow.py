"""Scan with bodies as functions or graph objects (Axon §7.2, §7.3)."""
import json
from pathlib import Path

import numpy as np

import shape_logic

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_rnn_cell_scanned():
    # Axon §7.2: X [s, b, 8], state [b, 16]: hT [b, 16], Y [s, b, 16]
    sol = shape_logic.solve(str(EXAMPLES / "axon_rnn_scan.json"))
    assert (sol.shape("hT"), sol.shape("Y")) == ("[b, 16]", "[s, b, 16]")
    assert (sol.shape("rnn/x"), sol.shape("rnn/h")) == ("[b, 8]", "[b, 16]")


def test_rnn_scan_runs_as_the_recurrence():
    g = json.loads((EXAMPLES / "axon_rnn_scan.json").read_text())
    cell = g["functions"]["cell"]["initializers"]
    w, r = (np.array(cell[k]["data"], np.float32) for k in ("W", "R"))
    x = np.random.default_rng(0).random((4, 3, 8), dtype=np.float32)
    out = shape_logic.run(g, {"X": x, "h0": np.zeros((3, 16), np.float32)})
    h, ys = np.zeros((3, 16), np.float32), []
    for t in range(4):
        h = np.tanh(x[t] @ w + h @ r)
        ys.append(h)
    np.testing.assert_allclose(out["Y"], np.stack(ys), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["hT"], h, rtol=1e-5, atol=1e-6)


def test_bidirectional_and_residual_rnns():
    # Axon §7.3: Y = concat(forward, reversed backward) [s, b, 32]; residual layers keep X
    sol = shape_logic.solve(str(EXAMPLES / "axon_rnn_bidir_residual.json"))
    assert sol.shape("Y") == "[s, b, 32]"
    assert sol.shape("X1") == sol.shape("X2") == "[s, b, 8]"
    assert sol.shape("res2/loop/x") == "[b, 8]"


def test_scan_body_with_a_wrong_state_is_an_error():
    g = json.loads((EXAMPLES / "axon_rnn_scan.json").read_text())
    g["inputs"]["h0"]["shape"] = "[b, 15]"
    assert shape_logic.solve(g).status == "error"


def test_onnx_scan_body_and_local_function(tmp_path):
    # an ONNX Scan with a GraphProto body, then a call of a model-local function
    import onnx
    from onnx import TensorProto, helper

    f = TensorProto.FLOAT
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s2"]), helper.make_node("Identity", ["s2"], ["y"])],
        "body", [helper.make_tensor_value_info(n, f, None) for n in ("s", "x")],
        [helper.make_tensor_value_info(n, f, None) for n in ("s2", "y")])
    fn = helper.make_function("local", "double", ["a"], ["b"],
                              [helper.make_node("Add", ["a", "a"], ["b"])],
                              [helper.make_opsetid("", 18)])
    g = helper.make_graph(
        [helper.make_node("Scan", ["s0", "xs"], ["sT", "ys"], body=body, num_scan_inputs=1),
         helper.make_node("double", ["ys"], ["z"], domain="local")], "g",
        [helper.make_tensor_value_info("s0", f, ["n"]),
         helper.make_tensor_value_info("xs", f, ["s", "n"])],
        [helper.make_tensor_value_info("z", f, None)])
    model = helper.make_model(g, functions=[fn], opset_imports=[
        helper.make_opsetid("", 18), helper.make_opsetid("local", 1)])
    path = str(tmp_path / "scan_fn.onnx")
    onnx.save(model, path)
    sol = shape_logic.solve(path)
    assert (sol.shape("sT"), sol.shape("ys"), sol.shape("z")) == ("[n]", "[s, n]", "[s, n]")
    out = shape_logic.run(path, {"s0": np.ones(3, np.float32), "xs": np.ones((4, 3), np.float32)})
    np.testing.assert_allclose(out["z"][-1], [10.0, 10.0, 10.0])


def test_a_function_may_leave_a_declaration_null_as_the_graph_may():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3]"}},
         "functions": {"f": {"inputs": {"a": None}, "outputs": ["b"],
                             "annotations": {"b": None}, "initializers": None,
                             "nodes": [{"op": "Relu", "inputs": ["a"], "outputs": ["b"]}]}},
         "nodes": [{"name": "r", "op": "f", "inputs": ["x"], "outputs": ["y"]}]}
    sol = shape_logic.solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[2, 3]"
