"""SequenceEmpty: rules/SequenceEmpty.lp and its kernel."""
from shape_logic import run, solve


def test_an_empty_sequence_of_its_dtype():
    g = {"inputs": {}, "nodes": [{"op": "SequenceEmpty", "outputs": ["s"], "attrs": {"dtype": 7}},
                                 {"op": "SequenceLength", "inputs": ["s"], "outputs": ["n"]}]}
    sol = solve(g)
    assert sol.dtype("s") == "i64" and sol.sequence("s") == {"length": 0}
    assert run(g, {})["n"] == 0
    g["nodes"][0].pop("attrs")
    assert solve(g).dtype("s") == "f32"  # (float by default)
