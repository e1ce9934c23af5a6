"""Loop: the iteration number in the body (rules/Loop.lp, asp/iterations.py): I - 1 for a
name of the body's own, at most the trip count; what holds it stays in the body."""
import numpy as np

from shape_logic import run, solve
from shape_logic.testing import infer
from tests.ops.test_Loop import SLICED, body

M5 = np.array(5, dtype=np.int64)

# e = x[:i + 1] (x: [5]): one more element in each iteration, inserted into a sequence
PREFIX = body([{"op": "Unsqueeze", "inputs": ["i", "zero"], "outputs": ["i1"]},
               {"op": "Add", "inputs": ["i1", "one"], "outputs": ["i2"]},
               {"op": "Slice", "inputs": ["x", "zero", "i2"], "outputs": ["e"]},
               {"op": "SequenceInsert", "inputs": ["v", "e"], "outputs": ["v2"]}], ["v2"])
PREFIX["initializers"] = SLICED["initializers"]


def test_a_row_at_the_iteration_number_is_one_row_under_the_trip_count():
    # onnx's loop11: y' = y + x[i:i+1] for i in 0..4: the slice is [1], so y keeps [1]
    sol = infer("Loop", [M5, np.array(True), "[1]"], {"body": SLICED}, n_outputs=2)
    assert sol.status == "ok"
    assert sol.shape("y0") == "[1]" and sol.shape("y1") == "[5, 1]"


def test_the_slice_past_the_end_is_empty_without_a_trip_count():
    # no trip count: the iteration number has no ceiling, and past x's end the slice is
    # empty - the body's slice says so, in a name of its own; the carried value and the
    # scan output do not take that name (it is one iteration's)
    sol = infer("Loop", [None, ("bool", "[]"), "[1]"], {"body": SLICED}, n_outputs=2)
    assert sol.status == "ok"
    (length,) = sol.dims("n/xi")
    assert not length.is_int and len(length.symbols()) == 1
    (name,) = length.symbols()
    for at in (0, 6):  # i = 0 and i = 6 (the name is i + 1): 1 and 0 elements
        assert length.subs({name: at + 1}).value == (1 if at < 5 else 0)
    scan = sol.dims("y1")
    assert len(scan) == 2 and not scan[1].symbols() & {name}


def test_a_ragged_sequence_gets_no_common_size():
    # the sequence holds x[:1], x[:2], x[:3]: three elements of different sizes, so the
    # element shape names no size (a name would say they are equal)
    graph = {"inputs": {}, "outputs": {"s": {}},
             "nodes": [{"op": "SequenceEmpty", "inputs": [], "outputs": ["e0"]},
                       {"op": "Loop", "inputs": ["m", "", "e0"], "outputs": ["s"],
                        "attrs": {"body": PREFIX}}],
             "initializers": {"m": {"dtype": "i64", "shape": [], "data": 3}}}
    sol = solve(graph)
    assert sol.status == "ok" and sol.sequence("s")["length"] == 3
    assert sol.shape("s") == "[?]"
    got = run(graph, {})["s"]
    assert [len(a) for a in got] == [1, 2, 3]


def test_a_grown_value_inserted_each_iteration_gets_no_common_size():
    # v doubles in each iteration and goes into the sequence: [2, 3], [4, 3], [8, 3]. The
    # body's name for v's first axis (@grown) is one iteration's size: the elements share
    # axis 1 only (before, they shared a fresh name at axis 0 as well: wrong)
    carried = {"inputs": ["i", "c", "v", "q"], "outputs": ["c2", "v2", "q2"],
               "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]},
                         {"op": "Concat", "inputs": ["v", "v"], "outputs": ["v2"],
                          "attrs": {"axis": 0}},
                         {"op": "SequenceInsert", "inputs": ["q", "v"], "outputs": ["q2"]}]}
    graph = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3]"}},
             "outputs": {"y": {}, "s": {}},
             "nodes": [{"op": "SequenceEmpty", "inputs": [], "outputs": ["e0"]},
                       {"op": "Loop", "inputs": ["m", "", "x", "e0"], "outputs": ["y", "s"],
                        "attrs": {"body": carried}}],
             "initializers": {"m": {"dtype": "i64", "shape": [], "data": 3}}}
    sol = solve(graph)
    assert sol.status == "ok" and sol.sequence("s")["length"] == 3
    assert sol.shape("s") == "[?, 3]"
    got = run(graph, {"x": np.ones((2, 3), np.float32)})["s"]
    assert [a.shape for a in got] == [(2, 3), (4, 3), (8, 3)]
