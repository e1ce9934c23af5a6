"""SequenceLength: rules/SequenceLength.lp, its kernel, against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from tests.ops.sequence_check import check


def test_the_length_is_a_value():
    # the length as a shape: Reshape of a vector of 2*3 elements to [length, -1]
    g = {"inputs": {"a": {"dtype": "f32", "shape": "[2]"}, "b": {"dtype": "f32", "shape": "[4]"},
                    "x": {"dtype": "f32", "shape": "[6]"}},
         "initializers": {"zero": {"dtype": "i64", "data": [0]},
                          "rest": {"dtype": "i64", "data": [-1]}},
         "nodes": [{"op": "SequenceConstruct", "inputs": ["a", "b"], "outputs": ["s"]},
                   {"op": "SequenceLength", "inputs": ["s"], "outputs": ["n"]},
                   {"op": "Unsqueeze", "inputs": ["n", "zero"], "outputs": ["n1"]},
                   {"op": "Concat", "inputs": ["n1", "rest"], "outputs": ["shape"],
                    "attrs": {"axis": 0}},
                   {"op": "Reshape", "inputs": ["x", "shape"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.shape("n") == "[]" and sol.dtype("n") == "i64" and sol.shape("y") == "[2, 3]"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=3), min_size=1, max_size=4))
def test_matches_reference(shapes):
    check("SequenceLength", shapes, symbolic=False)
