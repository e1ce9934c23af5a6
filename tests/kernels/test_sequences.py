"""Sequence kernels against onnx's reference evaluator, on the graphs of
tests/ops/sequence_check.py (a SequenceConstruct of the elements, then the operator): edge
cases - negative and default positions, an empty sequence, keepdims, zero-sized pieces."""
import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from shape_logic import run
from tests.ops.sequence_check import check

from . import reference


def checked(op, *args, **kw):
    """tests.ops.sequence_check.check (kernel against the reference, and the rules),
    recorded for test_coverage."""
    reference.TESTED.add(op)
    reference.ATTEMPTED[op] += 1
    out = check(op, *args, **kw)
    reference.COMPARED[op] += 1
    return out


@pytest.mark.parametrize("position", [0, 1, -1, -3])
def test_at(position):
    checked("SequenceAt", [[2, 3], [4, 3], [1, 5]], [np.array(position)])


@pytest.mark.parametrize("position", [None, 0, 2, -3, [1]])
def test_insert(position):
    t = np.ones((2, 2), np.float32)
    out = checked("SequenceInsert", [[2, 3], [4, 3], [1, 5]],
                  [t] + ([] if position is None else [np.array(position)]))
    assert len(out) == 4


def test_insert_at_the_length_appends():
    # onnx's reference inserts at the front for a position equal to the length ((p + n) % n);
    # the spec (positions in [-n, n]) and onnxruntime append
    ort = pytest.importorskip("onnxruntime")
    nodes = [helper.make_node("SplitToSequence", ["x"], ["s"], axis=0),
             helper.make_node("SequenceInsert", ["s", "t", "p"], ["y"]),
             helper.make_node("ConcatFromSequence", ["y"], ["z"], axis=0)]
    g = helper.make_graph(nodes, "g", [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2]),
        helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
        initializer=[helper.make_tensor("p", TensorProto.INT64, [], [3])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    feeds = {"x": np.arange(6, dtype=np.float32).reshape(3, 2),
             "t": np.full((1, 2), 9, np.float32)}
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)[0]
    assert np.array_equal(run(model, feeds)["z"], want) and want[-1].tolist() == [9, 9]


@pytest.mark.parametrize("position", [None, 0, 2, -3])
def test_erase(position):
    out = checked("SequenceErase", [[2, 3], [4, 3], [1, 5]],
                  [] if position is None else [np.array(position)])
    assert len(out) == 2


def test_construct_and_length():
    assert len(checked("Identity", [[2], [3, 1], []])) == 3
    reference.TESTED.add("SequenceConstruct")  # (every graph of check() starts with it)
    assert checked("SequenceLength", [[2], [3, 1]]) == 2


@pytest.mark.parametrize("attrs,shapes", [
    ({"axis": 0}, [[2, 3], [4, 3]]), ({"axis": -1}, [[2, 1], [2, 3], [2, 2]]),
    ({"axis": 0, "new_axis": 1}, [[2, 3], [2, 3]]), ({"axis": -1, "new_axis": 1}, [[2], [2]]),
    ({"axis": 2, "new_axis": 1}, [[2, 3], [2, 3]])])
def test_concat(attrs, shapes):
    checked("ConcatFromSequence", shapes, attrs=attrs)


def test_empty():
    reference.TESTED.add("SequenceEmpty")
    reference.ATTEMPTED["SequenceEmpty"] += 1
    nodes = [helper.make_node("SequenceEmpty", [], ["s"], dtype=TensorProto.INT64),
             helper.make_node("SequenceInsert", ["s", "x"], ["t"]),
             helper.make_node("SequenceLength", ["t"], ["n"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("n", TensorProto.INT64, [])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    x = np.array([1, 2], np.int64)
    assert run(model, {"x": x})["n"] == ReferenceEvaluator(model).run(None, {"x": x})[0] == 1
    reference.COMPARED["SequenceEmpty"] += 1


@pytest.mark.parametrize("split,attrs", [
    (None, {"axis": 1}), (None, {"axis": 1, "keepdims": 0}), (3, {"axis": 1}),
    ([2, 0, 3], {"axis": -1}), ([5], {"axis": 1}), (4, {"axis": 0})])
def test_split(split, attrs):
    from tests.ops.test_SplitToSequence import reference as split_reference

    reference.TESTED.add("SplitToSequence")
    reference.ATTEMPTED["SplitToSequence"] += 1
    x = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    g = {"inputs": {"x": {"dtype": "f32", "shape": [4, 5]}}, "initializers": {},
         "nodes": [{"op": "SplitToSequence", "inputs": ["x"], "outputs": ["s"],
                    "attrs": attrs}], "outputs": {"s": {}}}
    if split is not None:
        g["nodes"][0]["inputs"].append("p")
        g["initializers"]["p"] = {"dtype": "i64", "data": split}
    ours, want = run(g, {"x": x})["s"], split_reference(x, attrs, split)
    assert len(ours) == len(want) and all(np.array_equal(a, b) for a, b in zip(ours, want))
    reference.COMPARED["SplitToSequence"] += 1


@pytest.mark.parametrize("n", [0, 1, 3])
def test_map(n):  # (the reference fails on an empty sequence: ours gives empty ones)
    # each element plus a tensor, and each element's shape (two outputs), over n elements
    reference.TESTED.add("SequenceMap")
    reference.ATTEMPTED["SequenceMap"] += 1
    body = helper.make_graph(
        [helper.make_node("Add", ["e", "t"], ["r"]), helper.make_node("Shape", ["e"], ["q"])],
        "body", [helper.make_tensor_value_info("e", TensorProto.FLOAT, None),
                 helper.make_tensor_value_info("t", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("r", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("q", TensorProto.INT64, None)])
    seq = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    g = helper.make_graph(
        [helper.make_node("SequenceMap", ["s", "t"], ["ys", "qs"], body=body)], "g",
        [helper.make_value_info("s", seq),
         helper.make_tensor_value_info("t", TensorProto.FLOAT, [3])],
        [helper.make_value_info("ys", seq),
         helper.make_value_info("qs", helper.make_sequence_type_proto(
             helper.make_tensor_type_proto(TensorProto.INT64, None)))])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    rng = np.random.default_rng(0)
    feeds = {"s": [rng.standard_normal((k + 1, 3)).astype(np.float32) for k in range(n)],
             "t": np.ones(3, np.float32)}
    ours = run(model, feeds)
    want = ReferenceEvaluator(model).run(None, feeds) if n else [[], []]
    for name, w in zip(["ys", "qs"], want):
        assert len(ours[name]) == len(w) == n
        assert all(np.array_equal(a, b) for a, b in zip(ours[name], w))
    reference.COMPARED["SequenceMap"] += 1
