"""Floors found first on the part of the graph that makes them (shape_logic/floor_prefix.py):
the graph's solve starts under them instead of being solved again under them (a vision
transformer's patch convolution, a speech model's feature extractor), with the same answer."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import floor_prefix, solve, solver

from ..onnx_graphs import assert_runtime_shapes


def _model(tail=8, concat=None):
    """x [b, 1, s] through Convs of 10/5 and 2/1 (s >= 15), y's last frame sliced off
    (max(0, f - 1) without the floor) and reshaped to [-1, its length, 4] (a length of 0
    would copy axis 1 instead and leave the -1 undecided: an axis the floors settle), then
    `tail` Relus: the convolutions are a small part of the graph. `concat`: x joined on
    axis 0 with a constant of that length (s = concat)."""
    w = [numpy_helper.from_array(np.ones(s, np.float32), n)
         for n, s in (("w1", (4, 1, 10)), ("w2", (4, 4, 2)))]
    consts = [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in
              {"zero": [0], "minus1": [-1], "two": [2], "three": [3], "four": [4]}.items()]
    nodes = [helper.make_node("Conv", ["x", "w1"], ["y"], kernel_shape=[10], strides=[5]),
             helper.make_node("Conv", ["y", "w2"], ["y2"], kernel_shape=[2]),
             helper.make_node("Slice", ["y", "zero", "minus1", "two"], ["z"]),
             helper.make_node("Shape", ["z"], ["zs"]),
             helper.make_node("Slice", ["zs", "two", "three"], ["len"]),
             helper.make_node("Concat", ["minus1", "len", "four"], ["target"], axis=0),
             helper.make_node("Reshape", ["z", "target"], ["t0"])]
    nodes += [helper.make_node("Relu", [f"t{i}"], [f"t{i + 1}"]) for i in range(tail)]
    outputs = [f"t{tail}"]
    if concat is not None:
        w.append(numpy_helper.from_array(np.ones((1, 1, concat), np.float32), "c"))
        nodes.append(helper.make_node("Concat", ["x", "c"], ["joined"], axis=0))
        outputs.append("joined")
    graph = helper.make_graph(
        nodes, "prefix", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 1, "s"])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs], w + consts)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


_CONTROL = solver.Problem.control


def _solved(model, monkeypatch, share):
    """The solution, and the node counts of the graphs each control was made for."""
    monkeypatch.setattr(floor_prefix, "MAX_SHARE", share)
    sizes, control = [], _CONTROL

    def counted(self, *args, **kwargs):
        sizes.append(len(self.graph.nodes))
        return control(self, *args, **kwargs)

    monkeypatch.setattr(solver.Problem, "control", counted)
    return solve(model), sizes


def test_the_graph_is_solved_once_under_the_floors_of_its_convolutions(monkeypatch):
    model = _model()
    first, sizes = _solved(model, monkeypatch, floor_prefix.MAX_SHARE)
    again, sizes_again = _solved(model, monkeypatch, 0.0)  # (no part solved first)
    # the two convolutions alone, then the graph once; without: the graph, and again
    # under the floors it found
    assert (sizes, sizes_again) == ([2, 15], [15, 15])
    assert first.to_json() == again.to_json()
    assert first.shape("t8") == "[b, s//5 - 2, 4]" and first.floors == {"s": 15}
    for s in (15, 16, 21, 40):
        assert_runtime_shapes(model, first, {"x": np.ones((2, 1, s), np.float32)})


def test_a_large_share_is_not_solved_first(monkeypatch):
    _, sizes = _solved(_model(tail=0), monkeypatch, floor_prefix.MAX_SHARE)  # 2 of 7 nodes
    assert 2 not in sizes


@pytest.mark.parametrize("length", [5, 20])
def test_a_graph_the_floors_contradict_is_explained_as_without_them(monkeypatch, length):
    # x joined with 5 positions binds s = 5, below the convolutions' 15: the solve under
    # the floors meets a conflict, and the graph's own solve (without them) gives the
    # error as before; at 20 the floors hold
    model = _model(concat=length)
    first, _ = _solved(model, monkeypatch, floor_prefix.MAX_SHARE)
    again, _ = _solved(model, monkeypatch, 0.0)
    assert first.to_json() == again.to_json()
    assert first.status == ("error" if length == 5 else "ok")
    if length == 20:
        assert first.shape("t8") == "[b, 2, 4]"


def test_a_bodys_copies_of_a_floored_name_share_its_floor(monkeypatch):
    # an If whose branches read y (through copies with names of their own: _i1_s, _i2_s)
    # after the convolutions: the floors found first name those copies too, so the solve
    # under them finds no new floor and is not solved again
    from shape_logic.solver import Problem

    model = _model(tail=12)
    cond = helper.make_tensor_value_info("cond", TensorProto.BOOL, [])
    branch = [helper.make_graph([helper.make_node(op, ["y"], [f"o_{op}"])], f"b_{op}", [],
                                [helper.make_tensor_value_info(f"o_{op}", TensorProto.FLOAT,
                                                               None)])
              for op in ("Relu", "Sigmoid")]
    model.graph.input.append(cond)
    model.graph.node.append(helper.make_node("If", ["cond"], ["chosen"],
                                             then_branch=branch[0], else_branch=branch[1]))
    model.graph.output.append(helper.make_tensor_value_info("chosen", TensorProto.FLOAT, None))
    floors = floor_prefix.prefix_floors(Problem.load(model))
    assert floors == {"s": 15, "_i1_s": 15, "_i2_s": 15}
    sol, sizes = _solved(model, monkeypatch, floor_prefix.MAX_SHARE)
    assert sizes.count(2) == 1 and len(sizes) == 2, sizes  # the part, then the graph once
    assert sol.shape("chosen") == "[b, 4, s//5 - 1]"


def test_a_graph_whose_only_symbol_is_the_batch_is_not_solved_first(monkeypatch):
    # the convolutions' axes are numbers: no floor to find first (HF ViT, Whisper)
    model = _model()
    x = model.graph.input[0].type.tensor_type.shape.dim[2]
    x.ClearField("dim_param")
    x.dim_value = 40
    sol, sizes = _solved(model, monkeypatch, floor_prefix.MAX_SHARE)
    assert sizes == [15] and sol.shape("t8") == "[b, 6, 4]"  # (7 frames, the last cut)
