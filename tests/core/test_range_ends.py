"""The first and the last element of an arange over a symbolic length (rules/Range.lp's
`last_value`, read by Gather's index -1, kept through Casts to float and back): Funnel's
relative positions (the legacy exporter) are a Range from pos[0] - pos[-1] + a shift, its
positions an arange over the sequence cast to float. Checked against onnxruntime."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve

from ..onnx_graphs import assert_runtime_shapes


def _model():
    """pos = float(arange(s)); rel = arange(int(pos[0] + 5), int(pos[0] - pos[-1] - 1), -1):
    s + 5 positions. And the same from a stride of 2: arange(0, s, 2)[-1] = 2*((s + 1)//2) - 2."""
    def const(name, value, dtype=np.int64):
        return numpy_helper.from_array(np.asarray(value, dtype), name)

    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "one"], ["s"], axis=0),
        helper.make_node("Range", ["zero", "s", "one"], ["positions"]),
        helper.make_node("Cast", ["positions"], ["pos"], to=f32),
        helper.make_node("Gather", ["pos", "zero"], ["first"], axis=0),
        helper.make_node("Gather", ["pos", "minus1"], ["last"], axis=0),
        helper.make_node("Add", ["first", "five"], ["top"]),
        helper.make_node("Sub", ["first", "last"], ["low"]),
        helper.make_node("Sub", ["low", "onef"], ["bottom"]),
        helper.make_node("Cast", ["top"], ["start"], to=i64),
        helper.make_node("Cast", ["bottom"], ["limit"], to=i64),
        helper.make_node("Range", ["start", "limit", "minus1"], ["rel"]),
        helper.make_node("Range", ["zero", "s", "two"], ["evens"]),
        helper.make_node("Gather", ["evens", "minus1"], ["last_even"], axis=0),
        helper.make_node("Range", ["zero", "last_even", "one"], ["below"]),
    ]
    graph = helper.make_graph(
        nodes, "range_ends", [helper.make_tensor_value_info("x", f32, ["b", "s"])],
        [helper.make_tensor_value_info("rel", i64, None),
         helper.make_tensor_value_info("below", i64, None)],
        [const("zero", 0), const("one", 1), const("two", 2), const("minus1", -1),
         const("five", 5.0, np.float32), const("onef", 1.0, np.float32)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_the_ends_of_an_arange_over_the_sequence():
    model = _model()
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("rel") == "[s + 5]"
    assert sol.shape("below") == "[2*((s + 1)//2) - 2]"
    for s in (1, 2, 3, 8, 65, 70):
        assert_runtime_shapes(model, sol, {"x": np.zeros((2, s), np.float32)})


@pytest.mark.parametrize("length", [3, 64, 65, 100])
def test_a_known_length_reads_the_same_ends(length):
    """(up to 64 elements the Range's values are listed; beyond, its ends alone)"""
    model = _model()
    model.graph.input[0].type.tensor_type.shape.dim[1].dim_value = length
    sol = solve(model)
    assert sol.shape("rel") == f"[{length + 5}]"
    assert sol.shape("below") == f"[{2 * ((length - 1) // 2)}]"
