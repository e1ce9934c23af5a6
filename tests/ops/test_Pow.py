"""Pow: rules/Pow.lp on data cases, and against onnx's reference on random shapes."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array

from .elementwise import operand_shapes
from tests.ops.cases import case_test

CASES = {
    "same shapes": ({"inputs": ["[b, s, 768]", "[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar exponent": ({"inputs": ["[b, s, 768]", "[]"]}, {"y0": "[b, s, 768]"}),
    "axes of 1 broadcast": ({"inputs": ["[b, 1, 768]", "[s, 1]"]}, {"y0": "[b, s, 768]"}),
    "symbols that may be 1 stay apart": ({"inputs": ["[n]", "[m]"]}, {"y0": "[max(m, n)]"}),
    "backward from the output": ({"inputs": ["[n, k]", "[k]"],
                                  "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": ["[n]", "[m]"],
                                      "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]"}),
    "integer exponent, float base": ({"inputs": [("f16", "[n, 3]"), ("i64", "[3]")]},
                                     {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
    "float exponent, integer base": ({"inputs": [("i32", "[n]"), ("f32", "[]")]},
                                     {"y0": "[n]", "dtypes": {"y0": "i32"}}),
    "the output has the base's type": ({"inputs": [("i64", "[3]"), ("f32", "[3]")],
                                        "outputs": {"y0": {"dtype": "f32"}}}, "error"),
    "opset 11: one type": ({"inputs": [("f32", "[3]"), ("i64", "[3]")], "opset": 11}, "error"),
    "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
    "one input": ({"inputs": ["[3]"]}, "error"),
    "opset 6, broadcast from axis 1": ({"inputs": ["[2, 3, 4, 5]", "[3, 4]"], "opset": 6,
                                        "attrs": {"broadcast": 1, "axis": 1}},
                                       {"y0": "[2, 3, 4, 5]"}),
    "opset 6 without broadcast: one shape": ({"inputs": ["[n, 3]", "[2, m]"], "opset": 6},
                                             {"y0": "[2, 3]", "x0": "[2, 3]"}),
}


test_case = case_test("Pow", CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64"]),
       st.sampled_from(["f32", "f64", "i32", "i64", "u8"]))
def test_matches_reference(shapes, base_dtype, exponent_dtype):
    base = random_array(shapes[0], base_dtype)
    exponent = random_array(shapes[1], exponent_dtype)
    check_against_reference("Pow", [base, exponent])


@pytest.mark.parametrize("base, exponent, want", [
    # HF's vision models: int(num_positions ** 0.5), the legacy exporter's Pow(16.0, 0.5)
    (16.0, 0.5, "[4, 4]"),
    ([16.0], [0.5], "[4, 4]"),
    (3.0, 2.0, "[9, 9]"),
    (5.0, 0.0, "[1, 1]"),
    # not a perfect square, or an exponent whose power a runtime may round either way
    (15.0, 0.5, None),
    (27.0, 1 / 3, None),
    (2.0, 0.25, None),
])
def test_known_powers_are_sizes(base, exponent, want):
    """Pow of known one-element floats, Cast to int64, as a Reshape target's two entries."""
    def const(v):
        v = np.array(v, np.float32)
        return {"dtype": "f32", "shape": list(v.shape), "data": v.tolist()}

    g = {"opset": 18, "inputs": {"d": {"dtype": "f32", "shape": "D"}},
         "initializers": {"x": const(base), "e": const(exponent),
                          "one": {"dtype": "i64", "shape": [1], "data": [1]}},
         "nodes": [{"op": "Pow", "inputs": ["x", "e"], "outputs": ["p"]},
                   {"op": "Cast", "inputs": ["p"], "outputs": ["side"], "attrs": {"to": 7}},
                   {"op": "Reshape", "inputs": ["side", "one"], "outputs": ["s0"]},
                   {"op": "Concat", "inputs": ["s0", "s0"], "outputs": ["s"],
                    "attrs": {"axis": 0}},
                   {"op": "Reshape", "inputs": ["d", "s"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    if want is None:
        assert re.fullmatch(r"\[_\d+, _\d+\]", sol.shape("r")), sol.shape("r")
    else:
        assert sol.shape("r") == want
