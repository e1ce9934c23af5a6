"""If: the values both branches give its outputs (rules/If.lp's if_value, if_fill): a shape
computed in each branch reaches the Reshape or ConstantOfShape after the If whichever
branch runs. Each model is run by onnxruntime with either condition at two sizes, and
the inferred shape must be what it gives."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.onnx_graphs import N, solved_checked, x_feeds


def _branch(name, nodes, out, dtype=TensorProto.INT64):
    return helper.make_graph(nodes, name, [], [helper.make_tensor_value_info(out, dtype,
                                                                             None)])


def _model(then_nodes, else_nodes, after, inits=None, x_shape=("s", "t"),
           dtype=TensorProto.INT64):
    """x of x_shape, a bool c; v = If(c) of the branches (each ending in its own tensor
    `tv` / `ev`), then `after` makes y of v."""
    inits = {"zero": [0], "one": [1], **(inits or {})}
    g = helper.make_graph(
        [N("Shape", "x", "sh"),
         helper.make_node("If", ["c"], ["v"],
                          then_branch=_branch("then", then_nodes, "tv", dtype),
                          else_branch=_branch("else", else_nodes, "ev", dtype))] + after,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape)),
         helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array(v, np.float32 if isinstance(v[0], float)
                                          else np.int64), k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def _checked(model):
    """y held against onnxruntime with either condition at two sizes of x."""
    lead = len(model.graph.input[0].type.tensor_type.shape.dim) - 2
    return solved_checked(model, x_feeds(lead=lead, c=[np.array(True), np.array(False)]))


RESHAPE = [N("Reshape", "x v", "y")]


def test_a_shape_both_branches_compute_reaches_the_reshape_after_the_if():
    sol = _checked(_model([N("Shape", "x", "tv")], [N("Shape", "x", "ev")], RESHAPE))
    assert sol.shape("y") == "[s, t]"


def test_the_same_values_computed_otherwise_in_each_branch():
    # then: x's shape; else: its two sizes gathered and concatenated again
    sol = _checked(_model(
        [N("Shape", "x", "tv")],
        [N("Shape", "x", "es"), N("Gather", "es zero", "a"), N("Gather", "es one", "b"),
         N("Concat", "a b", "ev", axis=0)], RESHAPE))
    assert sol.shape("y") == "[s, t]"


def test_branches_agreeing_on_some_elements_give_those_only():
    # then [s, t], else [s, -1]: element 0 is s either way, element 1 differs (t, -1);
    # Reshape makes t of -1, but the If's element 1 has no value, and y's axis 1 stays
    # open rather than taken from one branch
    sol = _checked(_model(
        [N("Shape", "x", "tv")],
        [N("Gather", "sh zero", "a"), N("Concat", "a minus", "ev", axis=0)], RESHAPE,
        {"minus": [-1]}))
    dims = sol.dims("y")
    assert str(dims[0]) == "s" and not dims[1].is_int and dims[1].symbols() - {"s", "t"}


def test_branches_that_differ_give_no_value():
    # then [s, t], else [t, s]: both reshape x, to different shapes: no size of y is the
    # graph's, and none is printed
    sol = _checked(_model(
        [N("Shape", "x", "tv")],
        [N("Shape", "x", "es"), N("Gather", "es swap", "ev")], RESHAPE, {"swap": [1, 0]}))
    assert all(d.symbols() - {"s", "t"} for d in sol.dims("y"))


@pytest.mark.parametrize("else_fill, expected", [(2, "[2*t]"), (3, None)])
def test_a_fill_both_branches_give(else_fill, expected):
    # then ConstantOfShape([t], 2), else Expand(k, [t]): every element 2 either way (a
    # fill) when k is 2, and their sum 2*t sizes y; none when k is 3
    sol = _checked(_model(
        [N("Gather", "sh one", "n"),
         N("ConstantOfShape", "n", "tv",
           value=numpy_helper.from_array(np.array([2], np.int64)))],
        [N("Gather", "sh one", "n2"), N("Expand", "k n2", "ev")],
        [N("ReduceSum", "v", "total", keepdims=1),
         N("ConstantOfShape", "total", "y",
           value=numpy_helper.from_array(np.array([1.0], np.float32)))],
        {"k": [else_fill]}))
    if expected is not None:
        assert sol.shape("y") == expected
    else:
        assert sol.dims("y")[0].symbols() - {"s", "t"}


@pytest.mark.parametrize("else_scales, expected", [
    ([1.0, 1.0, 2.0, 0.5], "[1, 1, 2*s, t//2]"),  # the same reals either way
    ([1.0, 1.0, 2.0, 1.0], None),  # not the same
])
def test_reals_both_branches_give(else_scales, expected):
    # Resize by scales an If gives: then a constant, else a constant of the same or of
    # other reals
    sol = _checked(_model(
        [N("Identity", "scales", "tv")], [N("Identity", "other", "ev")],
        [N("Resize", "x roi v", "y", mode="nearest")],
        {"scales": [1.0, 1.0, 2.0, 0.5], "other": else_scales, "roi": [0.0]},
        x_shape=(1, 1, "s", "t"), dtype=TensorProto.FLOAT))
    if expected is not None:
        assert sol.shape("y") == expected
    else:
        assert sol.dims("y")[3].symbols() - {"s", "t"}


def test_values_lifted_out_of_an_if_inside_a_branch():
    # the then-branch holds an If of its own whose branches compute x's shape: the inner
    # If's output is [s, t] in the then-branch's names, and so the outer If's, if the
    # else-branch computes [s, t] too
    inner = helper.make_node("If", ["c"], ["tv"],
                             then_branch=_branch("then_in", [N("Shape", "x", "a")], "a"),
                             else_branch=_branch("else_in", [N("Shape", "x", "b")], "b"))
    sol = _checked(_model([inner], [N("Shape", "x", "ev")], RESHAPE))
    assert sol.shape("y") == "[s, t]"
