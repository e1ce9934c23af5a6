"""SequenceConstruct: rules/SequenceConstruct.lp and encodings/sequences.lp (what every
element has), its kernel, against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from tests.ops.sequence_check import check


def construct(*shapes, **more):
    inputs = {f"e{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(shapes)}
    return {"inputs": inputs, **more, "nodes": [
        {"op": "SequenceConstruct", "inputs": list(inputs), "outputs": ["s"]}]}


def test_what_every_element_has():
    sol = solve(construct("[n, 3]", "[m, 3]", "[n, 3]"))
    assert sol.shape("s") == "[?, 3]" and sol.sequence("s") == {"length": 3}
    assert sol.dtype("s") == "f32"
    sol = solve(construct("[n, 3]", "[n, 3]"))
    assert sol.shape("s") == "[n, 3]"


def test_elements_of_two_ranks_share_no_shape():
    sol = solve(construct("[n, 3]", "[3]"))
    assert sol.status == "ok" and sol.shape("s").startswith("_")  # no rank all of them have


def test_elements_of_two_dtypes_are_an_error():
    g = construct("[2]", "[2]")
    g["inputs"]["e1"]["dtype"] = "i64"
    assert solve(g).status == "error"


def test_text_and_json():
    sol = solve(construct("[n, 3]", "[m, 3]"))
    assert sol.to_json()["tensors"]["s"] == {"dtype": "f32", "shape": "[?, 3]",
                                             "sequence": {"length": 2}}
    from shape_logic.render_text import render_solution

    assert "seq(f32)  {2 x [?, 3]}" in render_solution(sol)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=2, max_size=2), min_size=1, max_size=4),
       st.booleans())
def test_matches_reference(shapes, symbolic):
    # (Identity hands the whole sequence on: y is it)
    check("Identity", shapes, symbolic=symbolic)
