"""ConcatFromSequence: rules/ConcatFromSequence.lp, its kernel, against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from tests.ops.sequence_check import check


def concat(attrs, *shapes, sequence=None):
    if sequence is not None:
        return {"inputs": {"s": {"dtype": "f32", "shape": sequence, "sequence": True}},
                "nodes": [{"op": "ConcatFromSequence", "inputs": ["s"], "outputs": ["y"],
                           "attrs": attrs}]}
    inputs = {f"e{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(shapes)}
    return {"inputs": inputs, "nodes": [
        {"op": "SequenceConstruct", "inputs": list(inputs), "outputs": ["s"]},
        {"op": "ConcatFromSequence", "inputs": ["s"], "outputs": ["y"], "attrs": attrs}]}


def test_joined_elements_add_up_along_the_axis():
    assert solve(concat({"axis": 0}, "[n, 3]", "[m, 3]")).shape("y") == "[m + n, 3]"
    assert solve(concat({"axis": -1}, "[2, a]", "[2, b]", "[2, a]")).shape("y") == \
        "[2, 2*a + b]"


def test_stacked_along_a_new_axis():
    assert solve(concat({"axis": 1, "new_axis": 1}, "[n, 3]", "[n, 3]")).shape("y") == \
        "[n, 2, 3]"
    assert solve(concat({"axis": -1, "new_axis": 1}, "[n, 3]", "[n, 3]")).shape("y") == \
        "[n, 3, 2]"


def test_the_elements_must_agree_off_the_axis():
    sol = solve(concat({"axis": 0}, "[n, 3]", "[m, 4]"))
    assert sol.status == "error"
    sol = solve(concat({"axis": 0}, "[n, a]", "[m, b]"))  # the graph runs only if a = b
    assert sol.status == "ok" and sol.shape("y") == "[m + n, a]" and sol.bindings == {"b": "a"}


def test_joined_elements_share_a_rank():
    # (fuzz --kind seq --seed 3902: the solver said ok, the executor failed)
    sol = solve(concat({"axis": 0}, "[a, b, c]", "[n, m]"))
    assert sol.status == "error"
    assert "two ranks" in sol.diagnostics[0].message
    assert solve(concat({"axis": 0}, "[a, 3]", "[n, 3]")).status == "ok"


def test_a_sequence_known_as_a_whole():
    # an unknown number of elements of [b, ?]: stacked, a fresh length; joined along the
    # second axis, nothing common of the sum
    sol = solve(concat({"axis": 0, "new_axis": 1}, sequence="[b, 4]"))
    assert sol.shape("y") == "[_1, b, 4]"
    sol = solve(concat({"axis": 1}, sequence="[b, ?]"))
    assert sol.shape("y") == "[b, _1]"


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.data(), st.booleans(), st.booleans())
def test_matches_reference(n, data, stacked, symbolic):
    rank = data.draw(st.integers(1, 3))
    common = data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    axis = data.draw(st.integers(-rank - stacked, rank - 1 + stacked))
    shapes = []
    for _ in range(n):
        shape = list(common)
        if not stacked:
            shape[axis] = data.draw(st.integers(1, 4))
        shapes.append(shape)
    check("ConcatFromSequence", shapes, attrs={"axis": axis, "new_axis": int(stacked)},
          symbolic=symbolic)
