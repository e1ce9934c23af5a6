"""Loop: a while loop's iteration count from its condition (rules/Loop.lp's loop_stop) and
counters proven by induction (shape_logic/loop_induction.py). tf2onnx converts a Keras RNN's
time loop so: M = T, the condition at the start 0 < T, a counter t from 0 carried beside the
iteration number i, and the body's condition `i < T and t + 1 < T`; the steps' outputs are
stacked (scan outputs). Every stated dim is onnxruntime's at several sizes."""
import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

from shape_logic import solve
from tests.onnx_graphs import assert_same_outputs, open_tensors_checking_the_rest

BIG = np.iinfo(np.int64).max  # torch's and TensorFlow's "no trip count" M


def _const(name, value, dtype):
    return numpy_helper.from_array(np.asarray(value, dtype), name)


def while_model(start=0, step=1, cmp="Less", trip="T", cond0="computed", gather=True,
                probe=False, grow=False):
    """x [T, b, 4] walked by a loop: counter t (int32) from `start` by `step`, the condition
    `i < T and cmp(t + step, T)` (cmp: Less, Greater with its operands swapped,
    LessOrEqual), T carried unchanged as tf2onnx carries its loop-invariant operands. Scan
    outputs: x's row i (`gather`) and t as a row [1]. M: T, BIG or none (`trip`); the condition
    at the start: `0 < T` computed, or a graph input (`cond0` "input"). `probe`: the final
    t as the size of a tensor (`probe` [t_end]). `grow`: two carried values more, a list of
    t's rows (`rows`, from empty) and a tensor that t's row is joined to (`acc`, from [2]).
    """
    body_nodes = [
        helper.make_node("Add", ["t", "step"], ["t2"]),
        helper.make_node("Cast", ["t2"], ["t2l"], to=TP.INT64),
        helper.make_node("Cast", ["Tb"], ["Tbl"], to=TP.INT64),
        helper.make_node("Less", ["i", "Tbl"], ["ca"]),
        (helper.make_node("Greater", ["Tbl", "t2l"], ["cb"]) if cmp == "Greater" else
         helper.make_node(cmp, ["t2l", "Tbl"], ["cb"])),
        helper.make_node("And", ["ca", "cb"], ["c2"]),
        helper.make_node("Unsqueeze", ["t", "zero"], ["trow"]),
    ]
    carried_in, carried_out = [], []
    if grow:
        body_nodes += [helper.make_node("SequenceInsert", ["rows_in", "trow"], ["rows2"]),
                       helper.make_node("Concat", ["acc_in", "trow"], ["acc2"], axis=0)]
        carried_in = [helper.make_tensor_sequence_value_info("rows_in", TP.INT32, None),
                      helper.make_tensor_value_info("acc_in", TP.INT32, None)]
        carried_out = ["rows2", "acc2"]
    outputs = ["c2", "t2", "Tb", *carried_out, "trow"]
    if gather:
        body_nodes.append(helper.make_node("Gather", ["x", "i"], ["xi"]))
        outputs.append("xi")
    body = helper.make_graph(
        body_nodes, "body",
        [helper.make_tensor_value_info("i", TP.INT64, []),
         helper.make_tensor_value_info("c", TP.BOOL, []),
         helper.make_tensor_value_info("t", TP.INT32, []),
         helper.make_tensor_value_info("Tb", TP.INT32, []), *carried_in],
        [helper.make_empty_tensor_value_info(o) for o in outputs],
        [_const("step", step, np.int32), _const("zero", [0], np.int64)])
    nodes = [helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "zero_i"], ["T"]),
             helper.make_node("Cast", ["T"], ["T32"], to=TP.INT32)]
    if start == "b":  # t from x's size b
        nodes += [helper.make_node("Gather", ["xs", "one_i"], ["b"]),
                  helper.make_node("Cast", ["b"], ["t0"], to=TP.INT32)]
    inputs = [helper.make_tensor_value_info("x", TP.FLOAT, ["T", "b", 4])]
    if cond0 == "input":
        inputs.append(helper.make_tensor_value_info("go", TP.BOOL, []))
    else:
        nodes.append(helper.make_node("Less", ["zero_l", "T"], ["go"]))
    if grow:
        nodes.append(helper.make_node("SequenceEmpty", [], ["rows0"], dtype=TP.INT32))
    grown = ["rows", "acc"] if grow else []
    nodes.append(helper.make_node("Loop", [{"T": "T", "big": "big", "none": ""}[trip], "go",
                                           "t0", "T32"] + (["rows0", "acc0"] if grow else []),
                                  ["t_end", "T_end", *grown, "ts"]
                                  + (["xs_all"] if gather else []), body=body))
    if probe:
        nodes += [helper.make_node("Cast", ["t_end"], ["t_end64"], to=TP.INT64),
                  helper.make_node("Unsqueeze", ["t_end64", "zero_v"], ["t_row"]),
                  helper.make_node("ConstantOfShape", ["t_row"], ["probe"])]
    graph = helper.make_graph(
        nodes, "while", inputs,
        [helper.make_empty_tensor_value_info(o)
         for o in ["t_end", "ts", *grown] + (["xs_all"] if gather else [])
         + (["probe"] if probe else [])],
        [_const("zero_i", 0, np.int64), _const("zero_l", 0, np.int64),
         _const("one_i", 1, np.int64), _const("big", BIG, np.int64),
         _const("zero_v", [0], np.int64), _const("acc0", [7, 7], np.int32)]
        + ([] if start == "b" else [_const("t0", start, np.int32)]))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def feeds(model, sizes=(1, 2, 5)) -> list:
    out = []
    for n in sizes:
        f = {"x": np.random.default_rng(n).standard_normal((n, 1 + n % 3, 4)).astype(
            np.float32)}
        if any(i.name == "go" for i in model.graph.input):
            f["go"] = np.array(True)  # (no iteration: our executor refuses scan outputs)
        out.append(f)
    return out


def checked(model, sizes=(1, 2, 5)):
    """The solution, every stated dim checked against onnxruntime at x's lengths `sizes`
    (and our executor's outputs against its); the tensors left open."""
    sol = solve(model)
    assert sol.status == "ok"
    opened = open_tensors_checking_the_rest(model, sol, feeds(model, sizes))
    assert_same_outputs(model, feeds(model, sizes))
    return sol, opened


def test_tf2onnx_s_time_loop_runs_T_times():
    # i < T and t + 1 < T, t = i: the second stops it after iteration T - 1; t ends at T
    sol, opened = checked(while_model(probe=True))
    assert sol.shape("xs_all") == "[T, b, 4]" and sol.shape("ts") == "[T, 1]"
    assert sol.shape("probe") == "[T]"
    assert not opened


@pytest.mark.parametrize("cmp, start, want", [
    ("Less", 1, "max(1, T - 1)"),  # t + 1 = i + 2 < T: T - 1 iterations, one at least
    ("Less", "b", "max(1, T - b)"),  # from x's size b: i + b + 1 < T (b >= 1: below T)
    ("Greater", 0, "T"),  # T > t + 1, the same as Less
    ("LessOrEqual", 0, "T"),  # t + 1 <= T: T + 1 iterations, but M = T
])
def test_comparisons_and_starts(cmp, start, want):
    sol, opened = checked(while_model(start=start, cmp=cmp, gather=False))
    assert sol.shape("ts") == f"[{want}, 1]" and not opened


@pytest.mark.parametrize("trip", ["big", "none"])
def test_without_a_trip_count_the_condition_alone_counts(trip):
    # M = 2^63 - 1, or none: t + 1 <= T stops after T + 1 iterations (i < T never does
    # first)
    sol, opened = checked(while_model(cmp="LessOrEqual", trip=trip, gather=False))
    assert sol.shape("ts") == "[T + 1, 1]" and not opened


def test_a_step_of_two_is_no_counter():
    # t + 2 each time: t is not i + 0; the count stays open (a fresh name, never a guess)
    sol, opened = checked(while_model(step=2, gather=False))
    assert sol.shape("ts").startswith("[_") and opened == {"ts"}


def test_a_condition_given_at_the_start_may_be_false():
    # the condition input is data: the loop may run no iteration at all
    sol, opened = checked(while_model(cond0="input", gather=False))
    assert sol.shape("ts").startswith("[_") and "ts" in opened


def test_what_a_counted_while_loop_grows():
    # (Loop.lp's loop_runs: the steps a condition counts size a list built from empty and
    # a tensor joined a row per step, as they size the scan outputs)
    sol, opened = checked(while_model(grow=True, gather=False))
    assert sol.shape("acc") == "[T + 2]" and sol.shape("ts") == "[T, 1]"
    assert str(sol.decoded.sequences["rows"]) == "T" and not opened
