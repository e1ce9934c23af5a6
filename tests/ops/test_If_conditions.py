"""An If's branch knows its condition where that compares a size with a constant
(encodings/conditions.lp): torch.jit.script's `if x.size(1) > 4: x[:, :4] else: pad(x, 4 -
x.size(1))` runs its then-branch only where t > 4, so that branch's own copy of t is >= 5
and its slice, min(4, t), has 4 rows; the If's output is [b, 4, 4] both ways. What the
condition implies holds of the branch's own names only: t itself stays unbounded, the other
branch knows the opposite, and a condition on something else tells the branch nothing.
Each model is checked against onnxruntime and our executor on both sides of the bound."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import run, solve

from ..onnx_graphs import assert_runtime_shapes, open_tensors_checking_the_rest

SIZES = (1, 2, 3, 4, 5, 6, 9)  # t on both sides of 4


def _const(name, value):
    return numpy_helper.from_array(np.asarray(value, np.int64), name)


def _slice_branch():
    """x[:, :4]: min(4, t) rows."""
    return helper.make_graph(
        [helper.make_node("Slice", ["x", "zero1", "four1", "one1"], ["cut"])], "cut", [],
        [helper.make_tensor_value_info("cut", TensorProto.FLOAT, None)])


def _pad_branch():
    """x padded at the end of axis 1 by 4 - t (negative: cut): 4 rows whatever t is."""
    return helper.make_graph([
        helper.make_node("Sub", ["four", "t"], ["short"]),
        helper.make_node("Unsqueeze", ["short", "zero1"], ["short1"]),
        helper.make_node("Concat", ["zeros4", "short1", "zero1"], ["pads"], axis=0),
        helper.make_node("Pad", ["x", "pads"], ["padded"])], "pad", [],
        [helper.make_tensor_value_info("padded", TensorProto.FLOAT, None)])


def _identity_branch():
    return helper.make_graph([helper.make_node("Identity", ["x"], ["same"])], "same", [],
                             [helper.make_tensor_value_info("same", TensorProto.FLOAT, None)])


def _model(condition, then_branch, else_branch, inputs=(("x", ["b", "t", 4]),)):
    """x [b, t, 4]; t (and b, u of x and z) as 0-D int64 from its Shape; `condition`: the
    nodes computing `cond` from them and the constants; y = If(cond)."""
    nodes = [helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "one"], ["t"], axis=0),
             helper.make_node("Gather", ["xs", "zero"], ["b"], axis=0)]
    if len(inputs) > 1:
        nodes += [helper.make_node("Shape", ["z"], ["zs"]),
                  helper.make_node("Gather", ["zs", "one"], ["u"], axis=0)]
    nodes += condition + [helper.make_node("If", ["cond"], ["y"], name="if",
                                           then_branch=then_branch, else_branch=else_branch)]
    consts = [_const(k, v) for k, v in (
        ("zero", 0), ("one", 1), ("four", 4), ("five", 5), ("zero1", [0]), ("one1", [1]),
        ("four1", [4]), ("zeros4", [0, 0, 0, 0]))]
    graph = helper.make_graph(
        nodes, "branch_conditions",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], consts)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _cmp(op, a, b, out="cond"):
    return helper.make_node(op, [a, b], [out])


# a condition true exactly where t > 4, as exporters and people write it
ABOVE_FOUR = {
    "Greater(t, 4)": [_cmp("Greater", "t", "four")],
    "Less(4, t)": [_cmp("Less", "four", "t")],
    "GreaterOrEqual(t, 5)": [_cmp("GreaterOrEqual", "t", "five")],
    "Not(LessOrEqual(t, 4))": [_cmp("LessOrEqual", "t", "four", "le"),
                               helper.make_node("Not", ["le"], ["cond"])],
    "Cast(Greater(t, 4))": [_cmp("Greater", "t", "four", "gt"),  # (torch.jit.script's)
                            helper.make_node("Cast", ["gt"], ["cond"], to=TensorProto.BOOL)],
    "And(Greater(t, 4), Greater(b, 0))": [
        _cmp("Greater", "t", "four", "gt"), _cmp("Greater", "b", "zero", "gb"),
        helper.make_node("And", ["gt", "gb"], ["cond"])],
}


def _runs_agree(model, sol):
    """onnxruntime's shapes and our executor's outputs at each size of t."""
    for t in SIZES:
        feed = {"x": np.random.default_rng(t).standard_normal((2, t, 4)).astype(np.float32)}
        assert_runtime_shapes(model, sol, feed)
        assert run(model, feed)["y"].shape == (2, 4, 4)


@pytest.mark.parametrize("name", list(ABOVE_FOUR))
def test_the_then_branch_knows_its_size_is_above_the_constant(name):
    model = _model(ABOVE_FOUR[name], _slice_branch(), _pad_branch())
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("y") == "[b, 4, 4]"
    assert sol.shape("if/then_branch/cut") == "[b, 4, 4]"
    # (the bound is the branch's: x keeps t, and the graph requires nothing of it)
    assert sol.shape("x") == "[b, t, 4]" and sol.bindings == {} and sol.floors == {}
    _runs_agree(model, sol)


def test_the_else_branch_knows_the_negation():
    # If(t <= 4, pad, slice): the else-branch runs where t >= 5
    model = _model([_cmp("LessOrEqual", "t", "four")], _pad_branch(), _slice_branch())
    sol = solve(model)
    assert sol.status == "ok" and sol.shape("y") == "[b, 4, 4]"
    assert sol.shape("if/else_branch/cut") == "[b, 4, 4]"
    _runs_agree(model, sol)


def test_a_centred_pad_divides_a_length_its_ceiling_keeps_from_negative():
    # else (t <= 4): 4 - t split by Div (truncating) before and after: a floor division
    # only where 4 - t >= 0, which the else-branch's ceiling says; 4 rows both ways
    centred = helper.make_graph([
        helper.make_node("Sub", ["four", "t"], ["short"]),
        helper.make_node("Div", ["short", "two"], ["half"]),
        helper.make_node("Sub", ["short", "half"], ["rest"]),
        helper.make_node("Unsqueeze", ["half", "zero1"], ["half1"]),
        helper.make_node("Unsqueeze", ["rest", "zero1"], ["rest1"]),
        helper.make_node("Concat", ["zero1", "half1", "zero1", "zero1", "rest1", "zero1"],
                         ["pads"], axis=0),
        helper.make_node("Pad", ["x", "pads"], ["centred"])], "centred", [],
        [helper.make_tensor_value_info("centred", TensorProto.FLOAT, None)],
        [_const("two", 2)])
    model = _model([_cmp("Greater", "t", "four")], _slice_branch(), centred)
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("if/else_branch/half") == "[]"
    assert sol.shape("y") == "[b, 4, 4]"
    _runs_agree(model, sol)


def _open(sol, t, last=4):
    """Axis 1 of t is left open (a name of its own) while 0 and 2 are known."""
    dims = sol.dims(t)
    return (str(dims[0]), str(dims[2])) == ("b", str(last)) and str(dims[1]).startswith("_")


@pytest.mark.parametrize("condition, y", [
    ([_cmp("Greater", "u", "four")], "[b, _1, 4]"),  # on z's axis, not x's
    ([_cmp("Greater", "t", "four", "gt"), helper.make_node("Or", ["gt", "c2"], ["cond"])],
     "[b, _1, 4]"),
    ([_cmp("Greater", "t", "b")], "[b, _1, 4]"),  # two symbols: no bound of one
    # (the else-branch has t = 4: y is min(4, t) both ways)
    ([_cmp("Equal", "t", "four", "eq"), helper.make_node("Not", ["eq"], ["cond"])],
     "[b, min(4, t), 4]"),
], ids=["another tensor's size", "Or", "two sizes", "Not(Equal)"])
def test_a_condition_that_does_not_bound_the_sliced_size_is_not_used(condition, y):
    inputs = (("x", ["b", "t", 4]), ("z", ["b", "u", 4]))
    model = _model(condition, _slice_branch(), _pad_branch(), inputs)
    if any(n.op_type == "Or" for n in condition):
        model.graph.input.append(helper.make_tensor_value_info("c2", TensorProto.BOOL, []))
    sol = solve(model)
    assert sol.status == "ok"
    assert sol.shape("if/then_branch/cut") == "[b, min(4, t), 4]"
    assert sol.shape("y") == y
    feeds = [{"x": np.ones((2, t, 4), np.float32), "z": np.ones((2, u, 4), np.float32),
              "c2": np.array(t % 2 == 0)} for t in SIZES for u in (3, 4, 5)]
    inputs = {i.name for i in model.graph.input}
    feeds = [{k: v for k, v in f.items() if k in inputs} for f in feeds]
    assert open_tensors_checking_the_rest(model, sol, feeds) <= {"y"}


def test_the_else_branch_has_a_ceiling():
    # If(t > 4, x, x[:, :4]): the else-branch runs where t <= 4, so its slice is all of x
    # (and not 4: the then-branch's floor is not its); the If gives x's shape both ways
    model = _model([_cmp("Greater", "t", "four")], _identity_branch(), _slice_branch())
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings and sol.floors == {}
    assert sol.shape("if/else_branch/cut") == "[b, t, 4]"
    assert sol.shape("y") == "[b, t, 4]" and sol.bindings == {}
    for t in SIZES:
        feed = {"x": np.ones((2, t, 4), np.float32)}
        assert_runtime_shapes(model, sol, feed)
        assert run(model, feed)["y"].shape == (2, t, 4)


def test_a_bound_holds_only_in_the_branch_its_condition_picks():
    # If(t > 4, x[:, :8], x[:, :4]): then (t >= 5) min(8, t) stays, else (t <= 4) t
    eight = helper.make_graph(
        [helper.make_node("Slice", ["x", "zero1", "eight1", "one1"], ["cut8"])], "cut8", [],
        [helper.make_tensor_value_info("cut8", TensorProto.FLOAT, None)],
        [_const("eight1", [8])])
    model = _model([_cmp("Greater", "t", "four")], eight, _slice_branch())
    sol = solve(model)
    assert sol.status == "ok"
    assert sol.shape("if/then_branch/cut8") == "[b, min(8, t), 4]"
    assert sol.shape("if/else_branch/cut") == "[b, t, 4]"
    # (t is min(8, t) where the else-branch runs: @if_join)
    assert sol.shape("y") == "[b, min(8, t), 4]"
    for t in SIZES + (8, 12):
        feed = {"x": np.ones((2, t, 4), np.float32)}
        assert_runtime_shapes(model, sol, feed)
        assert run(model, feed)["y"].shape == (2, min(8, t), 4)


def test_the_if_joins_two_sizes_by_their_branches_bounds():
    # `x[:, :4] if t > 4 else x`: 4 where t >= 5, t where t <= 4: min(4, t) both ways
    model = _model([_cmp("Greater", "t", "four")], _slice_branch(), _identity_branch())
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings and sol.bindings == {}
    assert sol.shape("y") == "[b, min(4, t), 4]"
    for t in SIZES:
        feed = {"x": np.ones((2, t, 4), np.float32)}
        assert_runtime_shapes(model, sol, feed)
        assert run(model, feed)["y"].shape == (2, min(4, t), 4)
    # a condition on z's size bounds nothing of t: no join
    inputs = (("x", ["b", "t", 4]), ("z", ["b", "u", 4]))
    model = _model([_cmp("Greater", "u", "four")], _slice_branch(), _identity_branch(), inputs)
    assert _open(solve(model), "y")


def test_a_branch_its_bound_makes_impossible_is_no_error_of_the_graph():
    # the then-branch reshapes x to [b, 3, 4] (t = 3), but runs only where t > 4: it cannot
    # run, which is a warning at most; the graph runs at t <= 4
    reshape = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape3"], ["r"])], "r", [],
        [helper.make_tensor_value_info("r", TensorProto.FLOAT, None)],
        [_const("shape3", [0, 3, 4])])
    model = _model([_cmp("Greater", "t", "four")], reshape, _identity_branch())
    sol = solve(model)
    assert sol.status == "ok" and sol.bindings == {}
    assert len(sol.warnings) == 1 and "If branch cannot run" in sol.warnings[0]
    assert sol.warnings[0].endswith("(where t >= 5)")  # (what makes its sizes collide)
    assert sol.shape("x") == "[b, t, 4]" and _open(sol, "y")
    feeds = [{"x": np.ones((2, t, 4), np.float32)} for t in (1, 3, 4)]
    assert open_tensors_checking_the_rest(model, sol, feeds) == {"y"}
    for feed in feeds:
        assert run(model, feed)["y"].shape == feed["x"].shape


def test_a_nested_if_reads_the_condition_through_its_branch():
    # the outer If on a bool input c; its then-branch holds the If on t > 4, whose condition
    # is computed outside both (read through the outer branch's copy)
    inner = helper.make_graph(
        [helper.make_node("If", ["cond"], ["inner"], then_branch=_slice_branch(),
                          else_branch=_pad_branch())], "outer_then", [],
        [helper.make_tensor_value_info("inner", TensorProto.FLOAT, None)])
    model = _model([_cmp("Greater", "t", "four")], inner, _pad_branch())
    model.graph.node[-1].input[0] = "c"
    model.graph.input.append(helper.make_tensor_value_info("c", TensorProto.BOOL, []))
    sol = solve(model)
    assert sol.status == "ok" and sol.shape("y") == "[b, 4, 4]"
    for t in SIZES:
        for c in (True, False):
            feed = {"x": np.ones((2, t, 4), np.float32), "c": np.array(c)}
            assert run(model, feed)["y"].shape == (2, 4, 4)


# ----- the same in our graph format

def _json(op, then_nodes, else_nodes, out_then, out_else):
    return {"opset": 17,
            "inputs": {"x": {"dtype": "f32", "shape": "[b, t, 8]"}},
            "initializers": {k: {"dtype": "i64", "shape": s, "data": v} for k, (s, v) in {
                "one": ([], 1), "six": ([], 6), "zero1": ([1], [0]), "one1": ([1], [1]),
                "six1": ([1], [6])}.items()},
            "nodes": [
                {"op": "Shape", "inputs": ["x"], "outputs": ["xs"]},
                {"op": "Gather", "inputs": ["xs", "one"], "outputs": ["t"]},
                {"op": op, "inputs": ["t", "six"], "outputs": ["cond"]},
                {"name": "if", "op": "If", "inputs": ["cond"], "outputs": ["y"], "attrs": {
                    "then_branch": {"inputs": [], "outputs": [out_then], "nodes": then_nodes},
                    "else_branch": {"inputs": [], "outputs": [out_else],
                                    "nodes": else_nodes}}}]}


SLICE6 = [{"op": "Slice", "inputs": ["x", "zero1", "six1", "one1"], "outputs": ["cut"]}]
TILE = [{"op": "Concat", "inputs": ["x", "x"], "outputs": ["two"], "attrs": {"axis": 1}},
        {"op": "Concat", "inputs": ["two", "two"], "outputs": ["four"], "attrs": {"axis": 1}},
        {"op": "Slice", "inputs": ["four", "zero1", "six1", "one1"], "outputs": ["cut6"]}]


def test_json_both_branches_give_six_rows():
    # then (t >= 6): x[:, :6]; else (t < 6): x repeated four times (4*t rows), cut to 6,
    # which is 6 only where 4*t >= 6: the If is min(6, 4*t), 6 where the then-branch runs
    g = _json("GreaterOrEqual", SLICE6, TILE, "cut", "cut6")
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("if/then_branch/cut") == "[b, 6, 8]"
    assert sol.shape("if/else_branch/cut6") == "[b, min(6, 4*t), 8]"
    assert sol.shape("y") == "[b, min(6, 4*t), 8]"  # (6 where t >= 6)
    for t in (1, 2, 5, 6, 7):
        assert run(g, {"x": np.ones((1, t, 8), np.float32)})["y"].shape == (1, min(6, 4*t), 8)
    # with Greater(t, 6) the else-branch is the slice, of all t <= 6 rows
    g = _json("Greater", TILE, SLICE6, "cut6", "cut")
    sol = solve(g)
    assert sol.shape("if/else_branch/cut") == "[b, t, 8]"
    assert sol.shape("if/then_branch/cut6") == "[b, 6, 8]"  # 4*t >= 28
    assert sol.shape("y") == "[b, min(6, t), 8]"
    for t in (1, 2, 5, 6, 7, 10):
        x = np.ones((1, t, 8), np.float32)
        assert run(g, {"x": x})["y"].shape == (1, 6 if t > 6 else min(t, 6), 8)


def test_json_the_if_is_determined_where_both_branches_are():
    # then (t >= 6): x[:, :6]; else: six rows of a constant: [b, 6, 8] both ways
    const6 = [{"op": "Shape", "inputs": ["x"], "outputs": ["xs2"]},
              {"op": "Slice", "inputs": ["xs2", "zero1", "one1"], "outputs": ["b1"]},
              {"op": "Concat", "inputs": ["b1", "six1", "eight1"], "outputs": ["shape"],
               "attrs": {"axis": 0}},
              {"op": "ConstantOfShape", "inputs": ["shape"], "outputs": ["zeros"],
               "attrs": {"value": {"dtype": "f32", "shape": [1], "data": [0.0]}}}]
    g = _json("GreaterOrEqual", SLICE6, const6, "cut", "zeros")
    g["initializers"]["eight1"] = {"dtype": "i64", "shape": [1], "data": [8]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, 6, 8]" and sol.bindings == {}
    for t in (1, 5, 6, 11):
        assert run(g, {"x": np.ones((3, t, 8), np.float32)})["y"].shape == (3, 6, 8)


def test_a_branch_inside_a_branch_inherits_its_bounds():
    # the then-branch of t > 4 holds an If on t > 8 (computed outside both): its
    # else-branch runs where 5 <= t <= 8, so its x[:, :4] has 4 rows too
    inner = helper.make_graph(
        [helper.make_node("If", ["above8"], ["inner"], name="inner",
                          then_branch=_slice_branch(), else_branch=_slice_branch())],
        "outer_then", [], [helper.make_tensor_value_info("inner", TensorProto.FLOAT, None)])
    model = _model([_cmp("Greater", "t", "four"), _cmp("Greater", "t", "eight", "above8")],
                   inner, _pad_branch())
    model.graph.initializer.append(_const("eight", 8))
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings and sol.floors == {}
    assert sol.shape("if/then_branch/inner/else_branch/cut") == "[b, 4, 4]"
    assert sol.shape("y") == "[b, 4, 4]"
    for t in SIZES + (8, 12):
        feed = {"x": np.ones((2, t, 4), np.float32)}
        assert_runtime_shapes(model, sol, feed)
        assert run(model, feed)["y"].shape == (2, 4, 4)


def test_the_else_branch_of_an_inequality_gives_the_size_it_compared():
    """ViTDet resizes its relative position table [15, 8] to e = 2*(t//4) - 1 rows unless
    it has them already: If(Not(Equal(15, e)), resized, table). The else-branch runs where
    32 <= t <= 35 (a floor and a ceiling), and there e is 15 at each t, though the bounds
    of t//4 are looser than that: both branches give e (it was a fresh name)."""
    then_branch = helper.make_graph(
        [helper.make_node("Unsqueeze", ["e", "zero1"], ["e1"]),
         helper.make_node("ConstantOfShape", ["e1"], ["resized"])], "resize", [],
        [helper.make_tensor_value_info("resized", TensorProto.FLOAT, None)])
    else_branch = helper.make_graph(
        [helper.make_node("Identity", ["table"], ["same"])], "keep", [],
        [helper.make_tensor_value_info("same", TensorProto.FLOAT, None)])
    nodes = [helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "one"], ["t"], axis=0),
             helper.make_node("Div", ["t", "four"], ["q"]),
             helper.make_node("Add", ["q", "q"], ["q2"]),
             helper.make_node("Sub", ["q2", "one"], ["e"]),
             helper.make_node("Equal", ["fifteen", "e"], ["eq"]),
             helper.make_node("Not", ["eq"], ["cond"]),
             helper.make_node("If", ["cond"], ["y"], name="if", then_branch=then_branch,
                              else_branch=else_branch)]
    graph = helper.make_graph(
        nodes, "resize_unless_sized", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                     ["b", "t"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [_const("one", 1), _const("four", 4), _const("fifteen", 15), _const("zero1", [0]),
         numpy_helper.from_array(np.zeros(15, np.float32), "table")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings and sol.bindings == {}
    assert sol.shape("y") == "[2*(t//4) - 1]"
    assert sol.shape("if/else_branch/same") == "[15]"
    for t in (4, 31, 32, 35, 36, 50):
        assert_runtime_shapes(model, sol, {"x": np.zeros((2, t), np.float32)})
    # the table of another size (14 rows) is no size e takes: the else-branch's sizes
    # differ from the then-branch's wherever it runs, and no join is made
    model.graph.initializer[-1].CopyFrom(numpy_helper.from_array(np.zeros(14, np.float32), "table"))
    assert solve(model).shape("y").startswith("[_")
