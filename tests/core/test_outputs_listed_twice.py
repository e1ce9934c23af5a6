"""A body (If branch, Loop or Scan body) or a function that lists one value as two of its
outputs: ONNX allows it (the checker accepts it, onnx.reference returns the value twice),
and a Loop body whose carried value is also its scan output is written so. The solver
counts both outputs and the executor returns both, as onnx.reference does."""
import numpy as np
import pytest
from onnx import TensorProto as TP, checker, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import shape_logic


def _model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    checker.check_model(m, full_check=True)
    return m


def _vi(name, dims):
    return helper.make_tensor_value_info(name, TP.FLOAT, dims)


def if_model():
    then = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [],
                             [_vi("t", ["n", 3]), _vi("t", ["n", 3])])
    other = helper.make_graph([helper.make_node("Sigmoid", ["x"], ["e"]),
                               helper.make_node("Neg", ["x"], ["e2"])], "else", [],
                              [_vi("e", ["n", 3]), _vi("e2", ["n", 3])])
    node = helper.make_node("If", ["c"], ["y", "z"], then_branch=then, else_branch=other)
    return _model([node], [helper.make_tensor_value_info("c", TP.BOOL, []), _vi("x", ["n", 3])],
                  [_vi("y", ["n", 3]), _vi("z", ["n", 3])])


def loop_model():
    body = helper.make_graph(
        [helper.make_node("Identity", ["cin"], ["cout"]),
         helper.make_node("Add", ["xin", "one"], ["xo"])], "body",
        [helper.make_tensor_value_info("i", TP.INT64, []),
         helper.make_tensor_value_info("cin", TP.BOOL, []), _vi("xin", ["n"])],
        [helper.make_tensor_value_info("cout", TP.BOOL, []), _vi("xo", ["n"]), _vi("xo", ["n"])],
        initializer=[numpy_helper.from_array(np.array(1, np.float32), "one")])
    node = helper.make_node("Loop", ["M", "c", "x"], ["xf", "xs"], body=body)
    return _model([node], [_vi("x", ["n"])], [_vi("xf", ["n"]), _vi("xs", [3, "n"])],
                  [numpy_helper.from_array(np.array(3, np.int64), "M"),
                   numpy_helper.from_array(np.array(True), "c")])


def scan_model():
    body = helper.make_graph([helper.make_node("Add", ["s", "e"], ["so"])], "body",
                             [_vi("s", ["n"]), _vi("e", ["n"])],
                             [_vi("so", ["n"]), _vi("so", ["n"])])
    node = helper.make_node("Scan", ["s0", "xs"], ["sf", "ys"], body=body, num_scan_inputs=1)
    return _model([node], [_vi("s0", ["n"]), _vi("xs", ["t", "n"])],
                  [_vi("sf", ["n"]), _vi("ys", ["t", "n"])])


CASES = {
    "If": (if_model, {"c": np.array(True), "x": np.linspace(-1, 1, 6, dtype=np.float32)
                      .reshape(2, 3)}, {"y": "[n, 3]", "z": "[n, 3]"}),
    "Loop: carried and scanned": (loop_model, {"x": np.zeros(4, np.float32)},
                                  {"xf": "[n]", "xs": "[3, n]"}),
    "Scan: state and scanned": (scan_model, {"s0": np.zeros(4, np.float32),
                                             "xs": np.ones((5, 4), np.float32)},
                                {"sf": "[n]", "ys": "[t, n]"}),
}


@pytest.mark.parametrize("name", CASES)
def test_both_outputs_are_solved_and_run_as_onnx_reference(name):
    make, feeds, shapes = CASES[name]
    model = make()
    sol = shape_logic.solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert {t: sol.shape(t) for t in shapes} == shapes
    want = dict(zip(shapes, ReferenceEvaluator(model).run(None, feeds)))
    got = shape_logic.run(model, feeds)
    for t, v in want.items():
        np.testing.assert_array_equal(got[t], v)
    # the two outputs are two arrays, though the body computed one
    a, b = (got[t] for t in shapes)
    if a.shape == b.shape:
        assert not np.shares_memory(a, b)


def test_a_json_function_listing_an_output_twice():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n, 3]"}},
         "functions": {"f": {"inputs": ["a"], "outputs": ["t", "t"],
                             "nodes": [{"op": "Relu", "inputs": ["a"], "outputs": ["t"]}]}},
         "nodes": [{"name": "call", "op": "f", "inputs": ["x"], "outputs": ["y", "z"]}]}
    sol = shape_logic.solve(g)
    assert (sol.status, sol.shape("y"), sol.shape("z")) == ("ok", "[n, 3]", "[n, 3]")
    out = shape_logic.run(g, {"x": -np.ones((2, 3), np.float32)})
    assert out["y"].shape == out["z"].shape == (2, 3)
