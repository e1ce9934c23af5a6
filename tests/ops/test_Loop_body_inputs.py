"""Loop's body inputs as onnxruntime makes them: the iteration number a scalar, or a vector of
one where the body declares it so (loop.cc; rules/Loop.lp); the condition as the loop gives
it, then as the body gave it, and a body's false stops the loop even without a condition
input. onnxruntime runs each model, every dim we state must be its, and our executor must
compute what it does."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from tests.onnx_graphs import N, assert_same_outputs, solved_checked, x_feeds


def _model(declared):
    """x [s, t]; a Loop of 3 iterations whose body declares its iteration number `declared`
    (a shape; None: no shape) and gives Shape(i) and i + s, unsqueezed at 0, per iteration."""
    v = TensorProto.INT64
    body = helper.make_graph(
        [N("Identity", "c_in", "c_out"), N("Shape", "i", "si"),
         N("Add", "i s", "i_s"), N("Unsqueeze", "i_s ax", "e")], "body",
        [helper.make_tensor_value_info("i", v, declared),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("si", v, None), helper.make_tensor_value_info("e", v, None)])
    g = helper.make_graph(
        [N("Shape", "x", "sh"), N("Gather", "sh zero", "s"),
         helper.make_node("Loop", ["trips", ""], ["shapes", "elems"], body=body),
         N("Concat", "elems elems", "y", axis=0)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["s", "t"])],
        [helper.make_tensor_value_info(n, v, None) for n in ("shapes", "elems", "y")],
        [numpy_helper.from_array(np.array(k, np.int64), n)
         for n, k in (("trips", 3), ("zero", 0), ("ax", [0]))])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


@pytest.mark.parametrize("declared, shapes, elems", [
    ([], "[3, 0]", "[3, 1]"),  # a scalar: Shape(i) is empty, i + s unsqueezed [1]
    ([1], "[3, 1]", "[3, 1, 1]"),  # a vector of one: Shape(i) = [1], [1, 1] unsqueezed
    (["n"], "[3, 1]", "[3, 1, 1]"),  # of rank 1, its size named: still one element
])
def test_the_iteration_number_has_the_rank_the_body_declares(declared, shapes, elems):
    model = _model(declared)
    sol = solved_checked(model, x_feeds())
    assert sol.shape("shapes") == shapes and sol.shape("elems") == elems
    assert_same_outputs(model, x_feeds())


def test_without_a_declaration_it_is_a_scalar():
    # (onnxruntime refuses such a body: "subgraph input 0 has unknown shape"; the ONNX
    # reference runs it with a scalar, as our executor does)
    sol = solve(_model(None))
    assert sol.status == "ok" and sol.shape("shapes") == "[3, 0]"


def test_an_iteration_number_of_rank_two_is_an_error():
    sol = solve(_model([1, 1]))
    assert sol.status == "error"
    (d,) = sol.diagnostics
    assert "iteration number of rank 2" in d.to_text()


def _no_condition_input(body_cond):
    """A Loop of trip count 5 and no condition input whose body gives `body_cond` as its
    condition ("false": a constant false; "copy": its condition input) and its iteration
    number as a scan output."""
    nodes = [helper.make_node("Constant", [], ["c_out"],
                              value=numpy_helper.from_array(np.array(False)))] \
        if body_cond == "false" else [N("Identity", "c_in", "c_out")]
    body = helper.make_graph(
        nodes + [N("Identity", "i", "e")], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("e", TensorProto.INT64, [])])
    g = helper.make_graph(
        [helper.make_node("Loop", ["trips", ""], ["es"], body=body),
         N("Add", "x es", "y")], "g",
        [helper.make_tensor_value_info("x", TensorProto.INT64, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
        [numpy_helper.from_array(np.array(5, np.int64), "trips")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


@pytest.mark.parametrize("body_cond, runs", [("false", None), ("copy", "5")])
def test_without_a_condition_input_the_bodys_condition_stops_it_as_onnxruntime_runs_it(
        body_cond, runs):
    # ONNX says the body's condition is ignored without a condition input; onnxruntime
    # stops on it (once here, for false): only a condition that stays true counts 5
    model = _no_condition_input(body_cond)
    sol = solve(model)
    assert sol.status == "ok"
    (length,) = sol.dims("es")
    assert (str(length) == runs) if runs else not length.is_int
    feeds = [{"x": np.zeros(k, np.int64)} for k in (1, 5)] if runs == "5" else \
        [{"x": np.zeros(1, np.int64)}]
    assert_same_outputs(model, feeds)
    solved_checked(model, feeds)


def test_the_condition_reaches_the_body_as_given():
    # a condition input of shape [1]: the body's Shape of it is [1] in every iteration (our
    # executor passed a scalar before); the rules leave its rank open, as they did
    body = helper.make_graph(
        [N("Identity", "c_in", "c_out"), N("Shape", "c_in", "sc")], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, [1])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, [1]),
         helper.make_tensor_value_info("sc", TensorProto.INT64, None)])
    g = helper.make_graph(
        [helper.make_node("Loop", ["trips", "cond"], ["scs"], body=body),
         N("Shape", "x", "sx"), N("Concat", "scs scs", "y", axis=0)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["s", "t"])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None),
         helper.make_tensor_value_info("sx", TensorProto.INT64, None)],
        [numpy_helper.from_array(np.array(3, np.int64), "trips"),
         numpy_helper.from_array(np.array([True]), "cond")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    assert_same_outputs(model, x_feeds())
    sol = solved_checked(model, x_feeds())
    assert sol.shape("scs").startswith("[3, ")
