"""OptionalHasElement: rules/OptionalHasElement.lp, its kernel, against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st
from onnx import helper

from shape_logic.solver import solve
from tests.ops.optional_check import check


def picked(source: list[dict], inputs: dict, reads=("o",)) -> str:
    """The shape of an If on whether the optional `o` (made by `source`) holds an element,
    whose branches give [2] and [3]: known only where the condition's value is."""
    then = {"nodes": [{"op": "Constant", "outputs": ["t"], "attrs": {
        "value": {"dtype": "f32", "shape": [2], "data": [1, 2]}}}], "outputs": ["t"]}
    other = {"nodes": [{"op": "Constant", "outputs": ["e"], "attrs": {
        "value": {"dtype": "f32", "shape": [3], "data": [1, 2, 3]}}}], "outputs": ["e"]}
    g = {"inputs": inputs, "nodes": source + [
        {"op": "OptionalHasElement", "inputs": list(reads), "outputs": ["c"]},
        {"op": "If", "inputs": ["c"], "outputs": ["y"],
         "attrs": {"then_branch": then, "else_branch": other}}]}
    sol = solve(g)
    assert sol.status == "ok", sol.diagnostics
    assert (sol.dtype("c"), sol.shape("c")) == ("bool", "[]")
    return sol.shape("y")


def test_an_optional_of_a_tensor_holds_one():
    x = {"x": {"dtype": "f32", "shape": "[4]"}}
    assert picked([{"op": "Optional", "inputs": ["x"], "outputs": ["o"]}], x) == "[2]"


def test_an_empty_optional_holds_none():
    made = [{"op": "Optional", "outputs": ["o"], "attrs": {"type": {"dtype": "f32"}}}]
    assert picked(made, {}) == "[3]"


def test_an_optional_input_may_hold_either():
    assert picked([], {"o": {"dtype": "f32", "shape": "[4]", "optional": True}}) == "[_1]"


def test_a_tensor_of_the_graph_holds_one():
    # ONNX: a tensor (or sequence) input gives true; an input or initializer not declared
    # optional is one
    assert picked([], {"o": {"dtype": "f32", "shape": "[4]"}}) == "[2]"
    assert picked([], {"o": {"dtype": "f32", "shape": "[4]", "sequence": True}}) == "[2]"
    made = [{"op": "Relu", "inputs": ["x"], "outputs": ["o"]}]  # a node's: not claimed
    assert picked(made, {"x": {"dtype": "f32", "shape": "[4]"}}) == "[_1]"


def test_its_value_finds_an_error_explained():
    # fuzz --kind seq --seed 201, graph 736: 1 + has_element(x) elements split as [3], which
    # onnxruntime rejects; explaining finds it too (the node's absent input is known from
    # its facts, not its source: while explaining, its value 0 stopped the sum's arithmetic)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[5, s]"}},
         "initializers": {"one": {"dtype": "i64", "data": 1},
                          "zero": {"dtype": "i64", "data": 0},
                          "three": {"dtype": "i64", "shape": [1], "data": [3]}},
         "nodes": [{"name": "has", "op": "OptionalHasElement", "inputs": ["x"],
                    "outputs": ["h"]},
                   {"op": "Cast", "inputs": ["h"], "outputs": ["k"], "attrs": {"to": 7}},
                   {"op": "Add", "inputs": ["k", "one"], "outputs": ["n"]},
                   {"op": "Range", "inputs": ["zero", "n", "one"], "outputs": ["r"]},
                   {"name": "split", "op": "SplitToSequence", "inputs": ["r", "three"],
                    "outputs": ["s"], "attrs": {"axis": 0}}]}
    for explain in (False, True):
        sol = solve(g, explain=explain)
        assert sol.status == "error" and "2 and 3" in sol.diagnostics[0].message
    assert {e["name"] for e in sol.diagnostics[0].core} >= {"has", "split", "three"}


def test_no_input_holds_none():
    assert picked([], {}, reads=()) == "[3]"
    assert picked([], {}, reads=("",)) == "[3]"  # (an input left out by an empty name)


def test_the_value_reaches_a_shape():
    # Not and Cast of it, as torch.jit.script writes `y is None` (a bool's 1 and 0 cast to
    # int64, rules/Cast.lp), then a size
    g = {"nodes": [{"op": "OptionalHasElement", "inputs": [], "outputs": ["c"]},
                   {"op": "Not", "inputs": ["c"], "outputs": ["d"]},
                   {"op": "Cast", "inputs": ["d"], "outputs": ["k"], "attrs": {"to": 7}},
                   {"op": "Unsqueeze", "inputs": ["k", "zero"], "outputs": ["k1"]},
                   {"op": "ConstantOfShape", "inputs": ["k1"], "outputs": ["y"]}],
         "initializers": {"zero": {"dtype": "i64", "data": [0]}}}
    assert solve(g).shape("y") == "[1]"


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3), st.booleans())
def test_matches_reference(shape, empty):
    x = None if empty else np.zeros(shape, np.float32)
    y, sol = check([helper.make_node("OptionalHasElement", ["x"], ["y"])], {"x": x}, {"x"})
    assert bool(y) is not empty and sol.shape("y") == "[]"
