"""SequenceAt: rules/SequenceAt.lp, its kernel, against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from tests.ops.sequence_check import check


def at(position, *shapes, declared=None):
    inputs = {f"e{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(shapes)}
    g = {"inputs": inputs, "initializers": {}, "nodes": [
        {"op": "SequenceConstruct", "inputs": list(inputs), "outputs": ["s"]},
        {"op": "SequenceAt", "inputs": ["s", "p"], "outputs": ["y"]}]}
    if position is None:
        g["inputs"]["p"] = {"dtype": "i64", "shape": "[]"}
    else:
        g["initializers"]["p"] = {"dtype": "i64", "data": position}
    return g


def test_a_known_position_is_that_element():
    assert solve(at(1, "[n, 3]", "[m, 3]")).shape("y") == "[m, 3]"
    assert solve(at(-2, "[n, 3]", "[m, 3]")).shape("y") == "[n, 3]"
    assert solve(at([0], "[n, 3]", "[m, 3]")).shape("y") == "[n, 3]"  # (one element)


def test_a_position_known_only_at_run_time_gives_what_every_element_has():
    sol = solve(at(None, "[n, 3]", "[m, 3]"))
    assert sol.shape("y") == "[_1, 3]"  # one element: one size, not named
    assert solve(at(None, "[n, 3]", "[n, 3]")).shape("y") == "[n, 3]"


def test_the_element_is_linked_both_ways():
    g = at(0, "[n, 3]", "[m, 3]")
    g["outputs"] = {"y": {"shape": "[5, 3]"}}
    sol = solve(g)
    assert sol.bindings == {"n": 5}


def test_a_position_out_of_range_is_an_error():
    assert solve(at(2, "[n, 3]", "[m, 3]")).status == "error"
    assert solve(at(-3, "[n, 3]", "[m, 3]")).status == "error"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=2, max_size=2), min_size=1, max_size=4),
       st.data(), st.booleans())
def test_matches_reference(shapes, data, symbolic):
    p = data.draw(st.integers(-len(shapes), len(shapes) - 1))
    check("SequenceAt", shapes, [np.array(p)], symbolic=symbolic)


def test_a_position_computed_from_a_shape_is_no_error():
    # the position k (x's length) may be 1, which names b: no element is picked, and the
    # position is not out of range (a symbolic value compared with the length as a term
    # had made the node invalid); nor for an insertion or an erasure
    for op, extra in (("SequenceAt", []), ("SequenceErase", []), ("SequenceInsert", ["a"])):
        g = {"inputs": {"a": {"dtype": "f32", "shape": "[n, 3]"},
                        "b": {"dtype": "f32", "shape": "[m, 3]"},
                        "x": {"dtype": "f32", "shape": "[k]"}},
             "initializers": {"zero": {"dtype": "i64", "data": [0]}},
             "nodes": [{"op": "SequenceConstruct", "inputs": ["a", "b"], "outputs": ["s"]},
                       {"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                       {"op": "Squeeze", "inputs": ["sh", "zero"], "outputs": ["p"]},
                       {"op": op, "inputs": ["s"] + extra + ["p"], "outputs": ["y"]}]}
        sol = solve(g)
        assert sol.status == "ok", (op, [d.message for d in sol.diagnostics])
        assert sol.shape("y") == ("[_1, 3]" if op == "SequenceAt" else "[?, 3]")
