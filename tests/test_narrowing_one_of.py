"""A declared output that meets a broadcast the graph already requires of the inputs
(fuzz --narrowing, seed 542): x1 [s3, 4, 1] minus x0 [s0, s1, s2], x0 split along its
first axis in 2 and 3 (so s0 = 5). The graph alone requires s3 in {1, 5} and gives the
difference [5, 4, s2]; an output declared [5, 4, S_2] met the broadcast's `max(5, s3)`,
and that trial printed `max(5, s3) = 5` as a requirement of its own, which s3 in {1, 5}
implies: the declaration was set aside when every trial was solved, and kept when
narrowing_obvious decided it. Both keep it now, and no such constraint is printed."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import narrowing, solve
from shape_logic.decode import _implied_by_one_of
from shape_logic.symbolic.parse import parse_dim as parse_expr


def _model():
    nodes = [helper.make_node("Sub", ["x1", "x0"], ["t2"]),
             helper.make_node("Split", ["x0", "c5"], ["t6", "t6_1"], axis=0)]
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        nodes, "g", [info("x0", TensorProto.FLOAT, ["s0", "s1", "s2"]),
                     info("x1", TensorProto.FLOAT, ["s3", 4, 1])],
        [info("t2", TensorProto.FLOAT, [5, 4, "S_2"]),
         info("t6_1", TensorProto.FLOAT, [3, "s1", "s2"])],
        [numpy_helper.from_array(np.array([2, 3], np.int64), "c5")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


@pytest.mark.parametrize("every_trial", [False, True])
def test_a_declaration_the_graphs_one_of_implies_is_kept(monkeypatch, every_trial):
    if every_trial:  # (narrowing_obvious decides nothing: each trial is solved)
        monkeypatch.setattr(narrowing.Obvious, "verdict", lambda self, name: None)
    sol = solve(_model())
    assert sol.status == "ok" and not sol.warnings and not sol.set_aside
    assert sol.shape("t2") == "[5, 4, s2]" and sol.shape("t6_1") == "[3, s1, s2]"
    assert sol.one_of == {"s1": [1, 4], "s3": [1, 5]}
    assert sol.constraints == []


def _pair(a, b):
    return parse_expr(a), parse_expr(b)


def test_implied_by_one_of_holds_only_at_every_value():
    one_of = {parse_expr("s3"): (1, 5), parse_expr("t"): (1, 2)}
    assert _implied_by_one_of(_pair("max(5, s3)", "5"), one_of)
    assert _implied_by_one_of(_pair("max(5, s3)*max(2, t)", "10"), one_of)
    assert not _implied_by_one_of(_pair("s3", "5"), one_of)  # (s3 = 1 breaks it)
    assert not _implied_by_one_of(_pair("max(5, s3)", "u"), one_of)  # (u: any value)
    # a requirement whose values are expressions gives no finite domain
    assert not _implied_by_one_of(_pair("max(5, s3)", "5"),
                                  {parse_expr("s3"): (1, parse_expr("h"))})
