"""Reductions: an axis listed twice is reduced once (onnxruntime; ONNX's shape inference
too), so a list of L axes whose values are not known drops L axes only when L = 1: the
fuzzer's ReduceL2 over axes [s1 - 5, count - 1] had rank 2 stated, and ran at rank 3 where
both named axis 1 (bench/fuzz.py --kind ops --seed 9102, graph 467)."""
import numpy as np
import pytest
from onnx import TensorProto, helper

from shape_logic import solve
from tests.onnx_graphs import assert_same_outputs, runtime_shapes


def _model(op, axes_shape, keepdims=0):
    g = helper.make_graph(
        [helper.make_node(op, ["x", "axes"], ["y"], keepdims=keepdims)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5]),
         helper.make_tensor_value_info("axes", TensorProto.INT64, axes_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def _feed(axes):
    return {"x": np.random.default_rng(0).random((2, 3, 4, 5), np.float32),
            "axes": np.array(axes, np.int64)}


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceL2", "ReduceMax"])
def test_an_axis_listed_twice_is_reduced_once(op):
    model = _model(op, [2])
    # (a constant list: its axes known) onnxruntime gives [2, 4, 5] for [-3, 1]
    from onnx import numpy_helper
    const = helper.make_model(helper.make_graph(
        [helper.make_node(op, ["x", "axes"], ["y"], keepdims=0)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array([-3, 1], np.int64), "axes")]),
        opset_imports=[helper.make_opsetid("", 18)])
    sol = solve(const)
    assert sol.status == "ok" and sol.shape("y") == "[2, 4, 5]"
    want = runtime_shapes(const, {"x": _feed([0])["x"]})["y"]
    assert want == (2, 4, 5)
    assert_same_outputs(model, [_feed([-3, 1]), _feed([0, 2])])


def test_axes_known_at_run_time_only_leave_the_rank_open_unless_one():
    sol = solve(_model("ReduceSum", [2]))
    assert sol.status == "ok" and not sol.shape("y").startswith("[")  # a shape variable
    ranks = {len(runtime_shapes(_model("ReduceSum", [2]), _feed(a))["y"])
             for a in ([-3, 1], [0, 2])}
    assert ranks == {3, 2}  # the same list length, two ranks
    sol = solve(_model("ReduceSum", [1]))
    assert sol.status == "ok" and sol.shape("y").count(",") == 2  # rank 3, whichever axis
    sol = solve(_model("ReduceSum", [2], keepdims=1))
    assert sol.status == "ok" and sol.shape("y").count(",") == 3  # kept: rank 4


def test_an_unsqueeze_may_not_repeat_an_axis():
    # (onnxruntime refuses it: "'axes' has a duplicate axis")
    from shape_logic.testing import infer

    sol = infer("Unsqueeze", ["[2, 3]", np.array([0, -4])])
    assert sol.status == "error" and "twice" in sol.diagnostics[0].to_text()
