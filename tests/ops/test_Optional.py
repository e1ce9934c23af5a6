"""Optional: rules/Optional.lp, its kernel, against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st
from onnx import helper

from shape_logic.solver import solve
from tests.ops.optional_check import check


def graph(x=None, type_=None, annotations=None):
    g = {"inputs": {}, "nodes": [{"op": "Optional", "inputs": [], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    if x is not None:
        g["inputs"]["x"] = x
        g["nodes"][0]["inputs"] = ["x"]
    if type_ is not None:
        g["nodes"][0]["attrs"] = {"type": type_}
    if annotations:
        g["annotations"] = annotations
    return g


def test_an_optional_of_x_holds_x():
    sol = solve(graph({"dtype": "f32", "shape": "[b, 4]"}))
    assert (sol.dtype("y"), sol.shape("y")) == ("f32", "[b, 4]")
    assert sol.optional("y") == {"has_element": True}
    assert sol.to_json()["tensors"]["y"]["optional"] == {"has_element": True}
    assert sol.optional("x") is None  # x is a tensor


def test_what_the_optional_says_reaches_its_element():
    # backward: an annotation of the optional binds the element's names
    sol = solve(graph({"dtype": "f32", "shape": "[a, b]"}, annotations={"y": {"shape": "[3, 4]"}}))
    assert sol.status == "ok" and sol.shape("x") == "[3, 4]"
    assert sol.bindings == {"a": 3, "b": 4}


def test_an_empty_optional_has_the_type_attribute():
    sol = solve(graph(type_={"dtype": "i64", "shape": "[5, ?]"}))
    assert sol.status == "ok"
    assert sol.dtype("y") == "i64" and sol.shape("y") == "[5, _1]"
    assert sol.optional("y") == {"has_element": False}
    sol = solve(graph(type_={"dtype": "f32", "sequence": True}))
    assert sol.sequence("y") is not None and sol.shape("y") == "_1"


def test_an_empty_optional_without_a_type_is_an_error():
    sol = solve(graph())
    assert sol.status == "error"
    assert sol.diagnostics[0].message.endswith(
        "without an input it needs the attribute `type`, the element type of the empty optional")


def test_no_optional_of_an_optional():
    sol = solve(graph({"dtype": "f32", "shape": "[2]", "optional": True}))
    assert sol.status == "error"
    assert sol.diagnostics[0].message.endswith(
        "its input is an optional already: ONNX has no optional of an optional")


def test_an_optional_of_a_sequence_keeps_its_length_and_elements():
    g = {"inputs": {"a": {"dtype": "f32", "shape": "[n, 3]"},
                    "b": {"dtype": "f32", "shape": "[n, 3]"}},
         "nodes": [{"op": "SequenceConstruct", "inputs": ["a", "b"], "outputs": ["s"]},
                   {"op": "Optional", "inputs": ["s"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.sequence("y") == {"length": 2} and sol.shape("y") == "[n, 3]"
    assert sol.optional("y") == {"has_element": True}


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3), st.booleans())
def test_matches_reference(shape, sequence):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    y, sol = check([helper.make_node("Optional", ["x"], ["y"])], {"x": [x] if sequence else x})
    assert sol.optional("y") == {"has_element": True}
