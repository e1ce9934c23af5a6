"""A graph that conflicts only under the floors it requires has no run at all
(floor_rounds._conflicted): x [s3, 2, s4] max-pooled by 2 and broadcast back against x
needs s4//2 = 1 or equal sizes, and its output declared [s3, 2, s4//2] holds only at
s4 = 1 - where the pooling has no window. Found by `bench/fuzz.py --narrowing --kind base
--seed 7` (graph 227), where the solver said ok and kept the declaration."""
import json

import numpy as np
import pytest
from onnx import TensorProto, helper

from shape_logic import solve
from shape_logic.cli import main

NODES = [("pool", "MaxPool", ["x"], ["t2"], {"kernel_shape": [2], "strides": [2]}),
         ("less", "Less", ["t2", "x"], ["t4"], {}),
         ("where", "Where", ["t4", "t2", "x"], ["t5"], {})]


def _graph(tail: int = 0) -> dict:
    """`tail` Relus after x besides: the pooling is then a small enough part of the graph
    to be solved first (floor_prefix.py), and the graph's solve starts under its floor."""
    nodes = NODES + [(f"r{i}", "Relu", [f"x{i}" if i else "x"], [f"x{i + 1}"], {})
                     for i in range(tail)]
    return {"name": "floored_conflict",
            "inputs": {"x": {"dtype": "f32", "shape": "[s3, 2, s4]"}},
            "nodes": [{"name": n, "op": op, "inputs": i, "outputs": o, "attrs": a}
                      for n, op, i, o, a in nodes],
            "annotations": {"t5": {"shape": "[s3, 2, s4//2]"}},
            "outputs": {"t5": {}}}


def _t5_length(s4: int) -> int | None:
    """t5's last axis in a run at s4 (numpy's broadcasting), None where nothing runs."""
    if s4 < 2:  # (onnxruntime and our kernel reject a window larger than the input)
        return None
    pooled = s4 // 2
    try:
        return np.broadcast_shapes((pooled,), (s4,))[0]
    except ValueError:
        return None


def test_no_run_has_the_declared_shape():
    # what the tests below rest on: no s4 runs with t5 of s4//2
    assert all(_t5_length(s4) != s4 // 2 for s4 in range(0, 200))
    assert [s4 for s4 in range(0, 10) if _t5_length(s4) is not None] == [2, 3]


@pytest.mark.parametrize("tail", [0, 9])
def test_the_error_is_reported_with_the_floor_behind_it(tail):
    # (without the tail the floor is found by the graph's solve, a round follows under it:
    # floor_rounds.under_floors; with it, solved first: answer_under)
    sol = solve(_graph(tail))
    assert sol.status == "error"
    (d,) = sol.diagnostics
    assert d.message == "`t5` is declared [s3, 2, s4//2] but the graph gives [s3, 2, s4]"
    assert any("s4 >= 2" in n and 'MaxPool "pool"' in n and "no run" in n for n in d.notes)
    assert {"kind": "node", "name": "pool", "source": 'node "pool"'} in d.core
    # the table is the graph's without the annotation (error_table.fixed_table), not the
    # colliding values': the pooled axis broadcast against s4 >= 2 must be 1 (broadcast.lp),
    # so s4 is 2 or 3, the sizes that run (test_no_run_has_the_declared_shape)
    assert sol.ranges == {"s4": [2, 3]} and sol.shape("t2") == "[s3, 2, 1]"


def test_the_values_that_collide_make_no_more(tmp_path, capsys):
    # MaxPool's s4//2, equated with s4 through the broadcast, had already made s4//4; each
    # half made the next, paired with all before (6,361 computations, 8 s of grounding)
    sol = solve(_graph())
    assert sol.computations < 100
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_graph()))
    assert main(["solve", str(path)]) == 1
    assert "has no run at all" in capsys.readouterr().out


def test_an_onnx_declaration_that_only_the_floor_contradicts_is_set_aside():
    nodes = [helper.make_node(op, i, o, name=n, **a) for n, op, i, o, a in NODES]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["s3", 2, "s4"])],
        [helper.make_tensor_value_info("t5", TensorProto.FLOAT, ["s3", 2, "s4//2"])])
    sol = solve(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]))
    assert sol.status == "ok"
    assert sol.shape("t5") == "[s3, 2, s4]"  # (s4//2 before: wrong at every size that runs)
    assert "t5" in sol.set_aside


def test_a_note_names_a_few_of_many_bounding_nodes():
    # (tf2onnx's NASNet: 150 poolings and convolutions require its floors; the note names
    # a few of them, the core holds all)
    g = _graph()
    g["nodes"] += [{"name": f"p{i}", "op": "MaxPool", "inputs": ["x"], "outputs": [f"q{i}"],
                    "attrs": {"kernel_shape": [2], "strides": [2]}} for i in range(9)]
    sol = solve(g)
    (d,) = sol.diagnostics
    (note,) = [n for n in d.notes if "no run" in n]
    assert note.count('MaxPool "') == 5 and "5 more in the core" in note
    assert {f"p{i}" for i in range(9)} <= {e["name"] for e in d.core}
