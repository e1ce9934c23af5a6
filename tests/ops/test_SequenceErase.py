"""SequenceErase: rules/SequenceErase.lp, its kernel, against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from tests.ops.sequence_check import check


def erase(position, *shapes):
    inputs = {f"e{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(shapes)}
    node = {"op": "SequenceErase", "inputs": ["s"], "outputs": ["y"]}
    g = {"inputs": inputs, "initializers": {}, "nodes": [
        {"op": "SequenceConstruct", "inputs": list(inputs), "outputs": ["s"]}, node]}
    if position is not None:
        node["inputs"].append("p")
        g["initializers"]["p"] = {"dtype": "i64", "data": position}
    return g


def test_the_elements_left():
    sol = solve(erase(None, "[n, 3]", "[m, 3]"))  # the last goes
    assert sol.shape("y") == "[n, 3]" and sol.sequence("y") == {"length": 1}
    assert solve(erase(0, "[n, 3]", "[m, 3]")).shape("y") == "[m, 3]"
    assert solve(erase(-1, "[n, 3]", "[m, 3]", "[m, 3]")).shape("y") == "[?, 3]"


def test_from_a_sequence_known_as_a_whole():
    g = {"inputs": {"s": {"dtype": "f32", "shape": "[b, ?]", "sequence": True}},
         "nodes": [{"op": "SequenceErase", "inputs": ["s"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.shape("y") == "[b, ?]" and sol.sequence("y") == {"length": None}


def test_out_of_range_or_empty_is_an_error():
    assert solve(erase(2, "[n, 3]", "[m, 3]")).status == "error"
    g = {"inputs": {}, "nodes": [{"op": "SequenceEmpty", "outputs": ["s"]},
                                 {"op": "SequenceErase", "inputs": ["s"], "outputs": ["y"]}]}
    assert solve(g).status == "error"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=2, max_size=2), min_size=1, max_size=4),
       st.data(), st.booleans())
def test_matches_reference(shapes, data, symbolic):
    p = data.draw(st.none() | st.integers(-len(shapes), len(shapes) - 1))
    check("SequenceErase", shapes, [] if p is None else [np.array(p)], symbolic=symbolic)
