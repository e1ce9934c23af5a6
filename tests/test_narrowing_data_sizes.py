"""Sizes the data decides and declared outputs (shape_logic/data_sizes.py): a Slice at
offsets computed from shapes is the graph's to size, so the model is solved once; at
offsets a graph input holds, a traced size declared for it is set aside."""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve, solver

_CONTROL = solver.Problem.control


def _model(ends_from_input: bool):
    """x [b, 96] sliced on axis 1 to [0, ends): ends = Shape(x)[1] // 3 (32 at run time
    for 96: the graph gives it), or an int64 input `e`; y declared [b, 32]."""
    consts = {"zero": [0], "one": [1], "three": [3]}
    nodes = [helper.make_node("Slice", ["x", "zero", "ends", "one"], ["y"])]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 96])]
    if ends_from_input:
        inputs.append(helper.make_tensor_value_info("ends", TensorProto.INT64, [1]))
    else:
        nodes[:0] = [helper.make_node("Shape", ["x"], ["xs"]),
                     helper.make_node("Slice", ["xs", "one", "two"], ["width"]),
                     helper.make_node("Div", ["width", "three"], ["ends"])]
        consts["two"] = [2]
    graph = helper.make_graph(
        nodes, "slice", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                               ["b", 32])],
        [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in consts.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _counting_controls(monkeypatch) -> list:
    """A list that gets the node count of each graph a control is made for, from now on."""
    made = []

    def counted(self, *args, **kwargs):
        made.append(len(self.graph.nodes))
        return _CONTROL(self, *args, **kwargs)

    monkeypatch.setattr(solver.Problem, "control", counted)
    return made


def test_a_slice_at_offsets_computed_from_shapes_is_solved_once(monkeypatch):
    made = _counting_controls(monkeypatch)
    sol = solve(_model(ends_from_input=False))
    assert sol.shape("y") == "[b, 32]" and not sol.warnings and made == [4]


def test_a_traced_size_of_a_slice_at_offsets_an_input_holds_is_set_aside():
    sol = solve(_model(ends_from_input=True))
    assert len(sol.warnings) == 1 and "graph output y is declared [b, 32]" in sol.warnings[0]
    assert sol.shape("y").startswith("[b, _")  # (the data decides it)


def test_a_dim_the_graph_does_not_give_is_no_open_name():
    # narrowing._filled asks of the graph's own dim at an axis, None where the graph alone
    # gives no shape: a mutated export (a GatherND of NonZero's indices left untransposed)
    # crashed on it with an AttributeError
    from shape_logic.data_sizes import open_name
    from shape_logic.symbolic.expr import Expr

    assert open_name(None, {"b"}) is False
    assert open_name(Expr.sym("_1"), {"b"}) is True
    assert open_name(Expr.sym("b"), {"b"}) is False


def test_a_declaration_that_requires_something_of_a_count_is_set_aside():
    # (fuzz --kind ops --narrowing --seed 9631, graph 580) Unique's values declared [S_0],
    # its indices [2*k]: kept, the two made the count even (`S_0%2 = 0`), which a single
    # element's count, 1, is not. The count is the data's: only the declaration required it
    from tests.onnx_graphs import N, runtime_shapes

    i64 = TensorProto.INT64
    graph = helper.make_graph(
        [N("Unique", "x", "u idx inv", sorted=0)], "g",
        [helper.make_tensor_value_info("x", i64, [1])],
        [helper.make_tensor_value_info("u", i64, ["S_0"]),
         helper.make_tensor_value_info("idx", i64, ["2*k"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    sol = solve(model)
    assert sol.status == "ok" and not sol.constraints
    assert list(sol.set_aside) == ["idx"] and sol.shape("idx") == sol.shape("u") == "[S_0]"
    assert "which would require S_0%2 = 0" in sol.warnings[0]
    assert runtime_shapes(model, {"x": np.array([7])})["idx"] == (1,)


def _tiled_by_if(cond_from_input: bool):
    """torch.tile as scripted: a class token [1, 1, 4] tiled by repeats that an If picks -
    [b, 1, 1] (from x's shape) where the repeats are shorter than the token's rank, as here,
    else [1, 1, 1]. The condition compares the repeats' length with 3 (from
    shapes and constants), or is a bool input `c`; y declared [b, 1, 4]."""
    i64 = TensorProto.INT64
    consts = {"zero": np.asarray(0, np.int64), "ones": np.asarray([1, 1], np.int64),
              "one": np.asarray([1], np.int64),
              "three": np.asarray(3, np.int64), "axes": np.asarray([0], np.int64),
              "token": np.zeros((1, 1, 4), np.float32)}
    then = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["xs_t"]),
         helper.make_node("Gather", ["xs_t", "zero"], ["b_t"]),
         helper.make_node("Unsqueeze", ["b_t", "axes"], ["b1_t"]),
         helper.make_node("Concat", ["b1_t", "ones"], ["reps_t"], axis=0)],
        "then", [], [helper.make_tensor_value_info("reps_t", i64, [3])])
    other = helper.make_graph(
        [helper.make_node("Concat", ["ones", "one"], ["reps_e"], axis=0)],
        "else", [], [helper.make_tensor_value_info("reps_e", i64, [3])])
    nodes = [helper.make_node("If", ["c"], ["reps"], then_branch=then, else_branch=other),
             helper.make_node("Tile", ["token", "reps"], ["y"])]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 8])]
    if cond_from_input:
        inputs.append(helper.make_tensor_value_info("c", TensorProto.BOOL, []))
    else:
        nodes[:0] = [helper.make_node("Shape", ["ones"], ["n"]),
                     helper.make_node("Squeeze", ["n"], ["n0"]),
                     helper.make_node("Less", ["n0", "three"], ["c"])]
    graph = helper.make_graph(
        nodes, "tiled", inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["Tiley_dim_0", 1, 4])],
        [numpy_helper.from_array(v, k) for k, v in consts.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_repeats_an_if_picks_from_shapes_are_the_graph_s(monkeypatch):
    """The If's branches compute the repeats from shapes and constants, on a condition so
    computed: the graph gives the tiled size, and the model is solved once (ViViT's class
    token was solved again without its declarations, for nothing)."""
    made = _counting_controls(monkeypatch)
    sol = solve(_tiled_by_if(cond_from_input=False))
    assert sol.status == "ok" and sol.shape("y") == "[b, 1, 4]" and not sol.warnings
    assert len(made) == 1


def test_repeats_an_if_on_an_input_picks_leave_the_size_open(monkeypatch):
    # the data's condition picks a branch, [b, 1, 4] or [1, 1, 4]: no one size, and the
    # model is solved again without its declaration to tell
    made = _counting_controls(monkeypatch)
    sol = solve(_tiled_by_if(cond_from_input=True))
    # (the exporter's name for it is kept as a name: it says nothing of b)
    assert sol.status == "ok" and sol.shape("y") == "[Tiley_dim_0, 1, 4]"
    assert len(made) >= 2  # (solved again without the declaration)
