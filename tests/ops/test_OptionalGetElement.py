"""OptionalGetElement: rules/OptionalGetElement.lp, its kernel, against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import helper

from shape_logic.executor import ExecutionError, run
from shape_logic.solver import solve
from tests.ops.optional_check import check


def getter(x: dict, **more) -> dict:
    return {"inputs": {"x": x}, **more,
            "nodes": [{"op": "OptionalGetElement", "inputs": ["x"], "outputs": ["y"]}]}


def test_the_element_of_an_optional():
    sol = solve(getter({"dtype": "f32", "shape": "[b, 4]", "optional": True}))
    assert (sol.dtype("y"), sol.shape("y")) == ("f32", "[b, 4]")
    assert sol.optional("y") is None and sol.optional("x") == {"has_element": None}


def test_of_a_tensor_it_is_the_tensor():
    assert solve(getter({"dtype": "i64", "shape": "[3]"})).shape("y") == "[3]"


def test_what_the_element_needs_reaches_the_optional():
    sol = solve(getter({"dtype": "f32", "shape": "[a, b]", "optional": True},
                       outputs={"y": {"shape": "[2, 5]"}}))
    assert sol.shape("x") == "[2, 5]" and sol.bindings == {"a": 2, "b": 5}


def test_an_optional_that_surely_holds_none_is_an_error():
    g = {"nodes": [{"op": "Optional", "outputs": ["o"], "attrs": {"type": {"dtype": "f32"}}},
                   {"op": "OptionalGetElement", "inputs": ["o"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "error"
    assert sol.diagnostics[0].message.endswith("the optional is empty: it holds no element to get")


def test_running_it_on_an_empty_optional_input_fails_in_one_line():
    g = getter({"dtype": "f32", "shape": "[2]", "optional": True})
    with pytest.raises(ExecutionError, match="the optional is empty"):
        run(g, {})  # an optional input left out is empty
    assert run(g, {"x": np.ones(2, np.float32)})["y"].shape == (2,)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3), st.booleans())
def test_matches_reference(shape, sequence):
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    y, sol = check([helper.make_node("OptionalGetElement", ["x"], ["y"])],
                   {"x": [x, x] if sequence else x}, {"x"})
    assert sol.optional("y") is None
