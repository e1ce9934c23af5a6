"""SequenceInsert: rules/SequenceInsert.lp, its kernel, against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from tests.ops.sequence_check import check


def insert(position, *shapes, t="[k, 3]", start_empty=False):
    inputs = {f"e{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(shapes)}
    inputs["t"] = {"dtype": "f32", "shape": t}
    first = {"op": "SequenceEmpty", "outputs": ["s"]} if start_empty else \
        {"op": "SequenceConstruct", "inputs": [n for n in inputs if n != "t"], "outputs": ["s"]}
    node = {"op": "SequenceInsert", "inputs": ["s", "t"], "outputs": ["y"]}
    g = {"inputs": inputs, "initializers": {}, "nodes": [
        first, node, {"op": "SequenceAt", "inputs": ["y", "p0"], "outputs": ["y0"]}]}
    g["initializers"]["p0"] = {"dtype": "i64", "data": 0}
    if position is not None:
        node["inputs"].append("p")
        g["initializers"]["p"] = {"dtype": "i64", "data": position}
    return g


def test_at_the_end_or_at_a_position():
    sol = solve(insert(None, "[n, 3]", "[n, 3]", t="[n, 3]"))
    assert sol.shape("y") == "[n, 3]" and sol.sequence("y") == {"length": 3}
    sol = solve(insert(0, "[n, 3]", "[n, 3]"))
    assert sol.shape("y") == "[?, 3]" and sol.shape("y0") == "[k, 3]"
    sol = solve(insert(-1, "[n, 3]", "[m, 3]"))  # before the last
    assert sol.shape("y0") == "[n, 3]"


def test_into_an_empty_sequence():
    sol = solve(insert(None, t="[k, 3]", start_empty=True))
    assert sol.shape("y") == "[k, 3]" and sol.sequence("y") == {"length": 1}


def test_a_position_past_the_end_is_an_error():
    assert solve(insert(3, "[n, 3]", "[n, 3]")).status == "error"
    assert solve(insert(-3, "[n, 3]", "[n, 3]")).status == "error"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=2, max_size=2), min_size=1, max_size=4),
       st.lists(st.integers(1, 4), min_size=2, max_size=2), st.data(), st.booleans())
def test_matches_reference(shapes, t, data, symbolic):
    # (a position equal to the length appends: tests/kernels/test_sequences.py, against
    # onnxruntime; onnx's reference inserts it at the front)
    p = data.draw(st.none() | st.integers(-len(shapes), len(shapes) - 1))
    extra = np.random.default_rng(0).standard_normal(t).astype(np.float32)
    check("SequenceInsert", shapes, [extra] + ([] if p is None else [np.array(p)]),
          symbolic=symbolic)


def test_inserting_a_sequence_is_an_error():
    # torch.jit.script's export of a List[List[Tensor]] (bench/zoo_scripted.py's Pairs,
    # before it was dropped) inserts a SequenceConstruct into a sequence: the element is
    # not a tensor, which onnxruntime refuses at load; named as that, not as the dtype
    # clashes it leads to
    g = insert(None, t="[k, 3]", start_empty=True)
    g["nodes"].insert(0, {"name": "pair", "op": "SequenceConstruct", "inputs": ["t", "t"],
                          "outputs": ["pair"]})
    g["nodes"][2]["inputs"][1] = "pair"
    sol = solve(g)
    assert sol.status == "error"
    assert any("inserts `pair`, a sequence: the elements of a sequence must be tensors"
               in d.to_text() for d in sol.diagnostics), \
        [d.to_text() for d in sol.diagnostics]
    g["nodes"][1] = {"op": "SequenceConstruct", "inputs": ["pair"], "outputs": ["s"]}
    assert any("`pair` is a sequence: the elements of a sequence must be tensors" in d.to_text()
               for d in solve(g).diagnostics)


def test_a_tensor_of_another_type_into_an_empty_sequence_fails_to_run():
    # fuzz --kind seq --seed 2, graphs 293 and 390: SequenceEmpty(dtype=int64) took a float
    # tensor in the executor (an empty sequence's list had no element type to compare
    # with), where the solver rightly calls it an error; an erasure down to empty keeps it
    import pytest

    from shape_logic import run
    from shape_logic.match_cast import ExecutionError

    g = insert(None, t="[2, 3]", start_empty=True)
    g["nodes"][0]["attrs"] = {"dtype": 7}
    assert solve(g).status == "error"
    with pytest.raises(ExecutionError, match="float32 tensor into a sequence of int64"):
        run(g, {"t": np.zeros((2, 3), np.float32)}, check=False)
    g["nodes"][0]["attrs"] = {"dtype": 1}
    assert solve(g).status == "ok"
    assert run(g, {"t": np.zeros((2, 3), np.float32)})["y0"].shape == (2, 3)
    g["nodes"][0] = {"op": "SequenceConstruct", "inputs": ["e"], "outputs": ["s0"]}
    g["nodes"].insert(1, {"op": "SequenceErase", "inputs": ["s0"], "outputs": ["s"]})
    g["inputs"]["e"] = {"dtype": "i64", "shape": "[1]"}
    assert solve(g).status == "error"
    with pytest.raises(ExecutionError, match="into a sequence of int64"):
        run(g, {"t": np.zeros((2, 3), np.float32), "e": np.zeros(1, np.int64)}, check=False)
