"""SplitToSequence: rules/SplitToSequence.lp, its kernel, against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from shape_logic.executor import Program
from shape_logic.solver import solve
from tests.ops.sequence_check import holds


def split(shape, attrs, sizes=None):
    g = {"inputs": {"x": {"dtype": "f32", "shape": shape}}, "initializers": {},
         "nodes": [{"op": "SplitToSequence", "inputs": ["x"], "outputs": ["s"],
                    "attrs": attrs}], "outputs": {"s": {}}}
    if sizes is not None:
        g["nodes"][0]["inputs"].append("split")
        g["initializers"]["split"] = {"dtype": "i64", "data": sizes}
    return g


def test_pieces_of_one():
    sol = solve(split("[b, n, 4]", {"axis": 1}))
    assert sol.shape("s") == "[b, 1, 4]" and sol.sequence("s") == {"length": "n"}
    sol = solve(split("[b, n, 4]", {"axis": -2, "keepdims": 0}))
    assert sol.shape("s") == "[b, 4]"


def test_pieces_of_one_are_known_one_by_one():
    # fuzz seq 211: x3 inserted among 5 pieces [3, 1] cannot be joined along axis 0
    def joined(shape, keepdims, other):
        g = split(shape, {"axis": 1, "keepdims": keepdims})
        g["inputs"]["t"] = {"dtype": "f32", "shape": other}
        g["initializers"]["p"] = {"dtype": "i64", "shape": [], "data": -3}
        g["nodes"] += [{"op": "SequenceInsert", "inputs": ["s", "t", "p"], "outputs": ["u"]},
                       {"op": "ConcatFromSequence", "inputs": ["u"], "outputs": ["y"],
                        "attrs": {"axis": 0}}]
        g["outputs"] = {"y": {}}
        return solve(g)
    assert joined("[3, 5]", 1, "[3, 3]").status == "error"
    assert joined("[3, 5]", 1, "[3, 1]").shape("y") == "[18, 1]"
    assert joined("[3, 5, 2]", 0, "[4, 3]").status == "error"
    sol = joined("[3, 5, 2]", 0, "[4, 2]")
    assert sol.shape("u") == "[?, 2]" and sol.shape("y") == "[19, 2]"
    assert joined("[3, 5, 2]", 0, "[4, c]").bindings == {"c": 2}


def test_pieces_of_a_size():
    sol = solve(split("[b, 10, 4]", {"axis": 1}, 3))  # 3, 3, 3, 1
    assert sol.shape("s") == "[b, ?, 4]" and sol.sequence("s") == {"length": 4}
    assert solve(split("[b, 12, 4]", {"axis": 1}, 3)).shape("s") == "[b, 3, 4]"
    sol = solve(split("[b, n, 4]", {"axis": 1}, 3))
    assert sol.shape("s") == "[b, ?, 4]" and sol.sequence("s") == {"length": "(n + 2)//3"}


def test_an_empty_axis_cut_by_a_size_is_no_piece():
    # fuzz --kind seq --seed 4151, graph 792: x0[2:3] of an x0 [s0] split by 1 at s0 = 2,
    # its 0 elements: the rule's length max(0, min(3, s0) - 2) is 0 there, as onnx's
    # reference and onnxruntime give, and the kernel made one empty piece (np.split over
    # no cut gives the array whole)
    g = split("[s0]", {"axis": 0}, 1)
    g["initializers"].update({k: {"dtype": "i64", "data": [v]}
                              for k, v in (("b", 2), ("e", 3), ("a", 0))})
    g["nodes"].insert(0, {"op": "Slice", "inputs": ["x", "b", "e", "a"], "outputs": ["t"]})
    g["nodes"][1]["inputs"][0] = "t"
    g["initializers"]["split"] = {"dtype": "i64", "shape": [], "data": 1}
    sol = solve(g)
    assert sol.sequence("s") == {"length": "max(0, min(3, s0) - 2)"}
    for n, length in ((2, 0), (5, 1)):
        out = Program(g).run({"x": np.zeros(n, np.float32)})["s"]
        assert len(out) == length
    assert list(Program(split("[0, 2]", {"axis": 0}, 2)).run(
        {"x": np.zeros((0, 2), np.float32)})["s"]) == []


def test_pieces_of_listed_sizes():
    sol = solve(split("[b, 10, 4]", {"axis": 1}, [2, 3, 5]))
    assert sol.shape("s") == "[b, ?, 4]" and sol.sequence("s") == {"length": 3}
    assert solve(split("[b, n, 4]", {"axis": 1}, [2, 2])).bindings == {"n": 4}
    assert solve(split("[b, 10, 4]", {"axis": 1}, [2, 3])).status == "error"


def test_joined_again():
    g = split("[b, n, 4]", {"axis": 1}, 3)
    g["nodes"].append({"op": "ConcatFromSequence", "inputs": ["s"], "outputs": ["y"],
                       "attrs": {"axis": 1}})
    g["outputs"] = {"y": {}}
    g["inputs"]["x"]["shape"] = "[b, 10, 4]"
    assert solve(g).shape("y") == "[b, 10, 4]"  # 3 + 3 + 3 + 1


def reference(x, attrs, sizes):
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))]
    inits = [] if sizes is None else [numpy_helper.from_array(np.array(sizes, np.int64), "p")]
    node = helper.make_node("SplitToSequence", ["x"] + ([] if sizes is None else ["p"]), ["s"],
                            **attrs)
    model = helper.make_model(helper.make_graph(
        [node], "g", ins, [helper.make_empty_tensor_value_info("s")], initializer=inits),
        opset_imports=[helper.make_opsetid("", 18)])
    return ReferenceEvaluator(model).run(None, {"x": x})[0]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.data(), st.booleans())
def test_matches_reference(shape, data, symbolic):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    d = shape[axis]
    how = data.draw(st.sampled_from(["none", "scalar", "list"]))
    sizes = None if how == "none" else data.draw(st.integers(1, d)) if how == "scalar" else \
        data.draw(st.lists(st.integers(0, d), min_size=1, max_size=3).filter(
            lambda s: sum(s) == d) | st.just([d]))
    attrs = {"axis": axis, "keepdims": data.draw(st.sampled_from([0, 1]))}
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    names = {f"d{i}": n for i, n in enumerate(shape)} if symbolic else {}
    g = split(list(names) or shape, attrs, sizes)
    ours = Program(g).run({"x": x})["s"]
    want = reference(x, attrs, sizes)
    assert len(ours) == len(want) and all(np.array_equal(a, b) for a, b in zip(ours, want))
    sol = solve(g)
    assert sol.status == "ok"
    holds(sol, "s", ours, names)
