"""A declaration's requirements are compared with the graph's own by what they allow, not
by their text (requirements.new_requirements): a range the graph's one_of already keeps
is nothing new, and a one_of, an inequality or a range only the declaration makes is."""
import numpy as np
import pytest
from onnx import TensorProto, helper

import shape_logic.narrowing as narrowing
from shape_logic import solve
from shape_logic.decode import Decoded
from shape_logic.load_json import graph_from_dict
from shape_logic.requirements import input_requirements, new_requirements
from shape_logic.shapes import parse_shape
from shape_logic.symbolic.expr import Expr

F = TensorProto.FLOAT


def _broadcast_model(declared: list):
    """x0 [s0, 4] and x1 [4, 4] joined along the rows (so x0's columns are 4) and
    multiplied: their rows broadcast, s0 in {1, 4}, the product [4, 4]; declared
    `declared` (fuzz --kind ops --narrowing --seed 5701, graph 1305, shrunk)."""
    nodes = [helper.make_node("Concat", ["x0", "x1"], ["cat"], axis=0),
             helper.make_node("Mul", ["x1", "x0"], ["y"])]
    g = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("x0", F, ["s0", 4]),
         helper.make_tensor_value_info("x1", F, [4, 4])],
        [helper.make_tensor_value_info("y", F, declared),
         helper.make_tensor_value_info("cat", F, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


@pytest.mark.parametrize("obvious", [True, False])
def test_a_true_declaration_that_meets_a_broadcast_is_kept(obvious, monkeypatch):
    # The declared 4 meets max-like broadcasting of s0 with 4: the trial's solve gives
    # `s0 in 1..4` where the graph alone gives `s0 in {1, 4}`. Obvious kept it; with the
    # trial solved (Obvious cannot decide), the texts differed and it was set aside.
    if not obvious:
        monkeypatch.setattr(narrowing.Obvious, "verdict", lambda self, name: None)
    sol = solve(_broadcast_model([4, 4]))
    assert sol.set_aside == {} and sol.warnings == []
    assert sol.shape("y") == "[4, 4]"
    assert sol.one_of == {"s0": [1, 4]}
    # numpy agrees: rows of 1 or 4 broadcast against 4, others do not
    for s0, ok in ((1, True), (4, True), (2, False)):
        try:
            assert (np.zeros((4, 4)) * np.zeros((s0, 4))).shape == (4, 4) and ok
        except ValueError:
            assert not ok


def _graph():
    return graph_from_dict({"inputs": {"x": {"dtype": "float32", "shape": ["s", "t"]}},
                            "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}],
                            "outputs": {"y": {}}}, "test.json")


def _decoded(**fields) -> Decoded:
    return Decoded(**{"shapes": {}, "dtypes": {}, "bindings": {}, "ranges": {},
                      "constraints": [], "rename": {}, **fields})


S, T = Expr.sym("s"), Expr.sym("t")


def _e(text: str) -> Expr:
    (e,) = parse_shape(f"[{text}]").dims
    return e


@pytest.mark.parametrize("alone, trial, new", [
    # a range the graph's one_of keeps: nothing new
    (dict(one_of={S: (1, 4)}), dict(ranges={"s": (1, 4)}), []),
    # a narrower range than the graph's: new
    (dict(ranges={"s": (1, 8)}), dict(ranges={"s": (1, 4)}), ["s in 1..4"]),
    # a one_of only the declaration makes: new (input_requirements left one_of out)
    (dict(), dict(one_of={S: (1, 4)}), ["s in {1, 4}"]),
    # ... and one the graph's range confines to its values already: nothing new
    (dict(ranges={"s": (3, 4)}), dict(one_of={S: (3, 4)}), []),
    # a binding the graph's one_of and floor leave as the only value: nothing new
    (dict(one_of={S: (1, 4)}, floors={"s": 2}), dict(bindings={"s": Expr.const(4)}), []),
    (dict(one_of={S: (1, 4)}), dict(bindings={"s": Expr.const(4)}), ["s = 4"]),
    # a range wider than the values enumerated, within the graph's: nothing new
    (dict(ranges={"s": (100, 900)}), dict(ranges={"s": (1, 1000)}), []),
    (dict(floors={"s": 100}), dict(ranges={"s": (1, 1000)}), ["s in 1..1000"]),
    # a floor the graph's range keeps: nothing new; above it: new
    (dict(ranges={"s": (5, 9)}), dict(floors={"s": 3}), []),
    (dict(ranges={"s": (1, 9)}), dict(floors={"s": 3}), ["s >= 3"]),
    # an inequality only the declaration makes: new (input_requirements left it out),
    # one that holds wherever the graph runs: nothing new
    (dict(), dict(inequalities=[(S + T, Expr.const(64), "y")]), ["s + t <= 64"]),
    (dict(ranges={"s": (1, 4), "t": (1, 8)}),
     dict(inequalities=[(S + T, Expr.const(64), "y")]), []),
    # an equation that holds at every value the graph leaves: nothing new
    (dict(one_of={S: (1, 4)}), dict(met_constraints=[(S * S, 5 * S - 4)]), []),
    (dict(one_of={S: (1, 4)}), dict(met_constraints=[(S * S, 4 * S)]),
     [f"{S * S} = {4 * S}"]),
    # an equation that is one of the graph's once the max its values dominate is dropped:
    # s*t*max(5, s) = 20 is s*t = 4 where s in {1, 5} (fuzz seed 5622, graph 1292) ...
    (dict(one_of={S: (1, 5)}, met_constraints=[(S * T, Expr.const(4))]),
     dict(met_constraints=[(_e("s*t*max(5, s)"), Expr.const(20))]), []),
    (dict(ranges={"s": (1, 5)}, met_constraints=[(S * T, Expr.const(4))]),
     dict(met_constraints=[(_e("s*t*max(6, s)"), Expr.const(24))]), []),
    # ... but not where the values do not dominate it, nor another equation
    (dict(met_constraints=[(S * T, Expr.const(4))]),
     dict(met_constraints=[(_e("s*t*max(5, s)"), Expr.const(20))]),
     [f"{_e('s*t*max(5, s)')} = 20"]),
    (dict(ranges={"s": (1, 5)}, met_constraints=[(S * T, Expr.const(4))]),
     dict(met_constraints=[(S * T, Expr.const(8))]), [f"{S * T} = 8"]),
])
def test_new_requirements_compare_what_they_allow(alone, trial, new):
    g = _graph()
    got = new_requirements(g, _decoded(**trial), _decoded(**alone))
    assert got == new
    # and each such requirement is one of the trial's own
    assert set(got) <= set(input_requirements(g, _decoded(**trial)))


def test_a_warning_names_the_shortest_few_requirements_and_counts_the_rest():
    # (an output of MaskFormer declared [d0, d1, d0, d1] required 111 equations, each a
    # restatement of two: a warning of 15,000 characters)
    from shape_logic.requirements import SHOWN, requirements_text

    texts = ["w in 17..20", "(h + 3)//4 = b", "max(b, (h + 3)//4)*(h//2) = b*(h//2)",
             "max(b, (h + 3)//4) = b", "5*((h + 3)//4)//b = 5", "5*b//((h + 3)//4) = 5"]
    assert SHOWN == 4
    assert requirements_text(texts[:4]) == " and ".join(texts[:4])
    assert requirements_text(texts) == (
        "w in 17..20 and (h + 3)//4 = b and 5*((h + 3)//4)//b = 5 and 5*b//((h + 3)//4) = 5"
        " (and 2 more requirements of the same sizes)")
