"""Mod: rules/Mod.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import operand_shapes
from .values import i64, values_test

OPSET = 18
DEFAULT_ATTRS = None
CASES = {
    "same shapes": ({"inputs": [("i64", "[b, s, 768]"), ("i64", "[b, s, 768]")]},
                    {"y0": "[b, s, 768]"}),
    "trailing axes": ({"inputs": [("i64", "[b, s, 768]"), ("i64", "[768]")]},
                      {"y0": "[b, s, 768]"}),
    "axes of 1 broadcast": ({"inputs": [("i64", "[b, 1, 768]"), ("i64", "[s, 1]")]},
                            {"y0": "[b, s, 768]"}),
    "scalar operand": ({"inputs": [("i64", "[]"), ("i64", "[b, 3]")]}, {"y0": "[b, 3]"}),
    "symbols that may be 1 stay apart": ({"inputs": [("i64", "[n]"), ("i64", "[m]")]},
                                         {"y0": "[max(m, n)]"}),
    "a literal decides, the symbol stays": ({"inputs": [("i64", "[n]"), ("i64", "[3]")]},
                                            {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": [("i64", "[n, k]"), ("i64", "[k]")],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": [("i64", "[n]"), ("i64", "[m]")],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]"}),
    "dtype": ({"inputs": [("i64", "[n]"), ("i64", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "i64"}}),
    "incompatible axes": ({"inputs": [("i64", "[2, 3]"), ("i64", "[4]")]}, "error"),
    "incompatible after backward inference": ({"inputs": [("i64", "[n]"), ("i64", "[3]")],
                                                "outputs": {"y0": {"shape": "[2]"}}}, "error"),
    "one input": ({"inputs": [("i64", "[3]")]}, "error"),
    "output dtype clashes": ({"inputs": [("i64", "[3]"), ("i64", "[3]")],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "dtype mix": ({"inputs": [("f32", "[3]"), ("i64", "[3]")], "attrs": {"fmod": 1}}, "error"),
    "floats need fmod = 1": ({"inputs": ["[3]", "[3]"]}, "error"),
    "floats with fmod = 1": ({"inputs": ["[b, 3]", "[3]"], "attrs": {"fmod": 1}},
                             {"y0": "[b, 3]", "dtypes": {"y0": "f32"}}),
    "opset 28: floats with fmod = 0": ({"inputs": ["[b, 3]", "[3]"], "opset": 28},
                                       {"y0": "[b, 3]"}),
    "fmod is 0 or 1": ({"inputs": [("i64", "[3]"), ("i64", "[3]")], "attrs": {"fmod": 2}}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Mod", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


VALUE_CASES = {
    "constants": ([i64(7, 9), i64(4, 5)], None, (), "[3, 4]"),
    "a scalar applies to every element": ([i64(7, 9), np.array(4, np.int64)], None, (), "[3, 1]"),
    "both negative (fmod = 0)": ([i64(-7), i64(-4)], None, ("Neg",), "[3]"),
    "mixed signs, fmod = 0: floored": ([i64(-7), i64(4)], None, (), "[1]"),
    "mixed signs, fmod = 1": ([i64(-7), i64(4)], {"fmod": 1}, ("Neg",), "[3]"),
    "modulo zero: unknown": ([i64(7), i64(0)], None, (), None),
}


test_values = values_test("Mod", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["i8", "i32", "i64", "u8", "f32", "f64"]),
       st.integers(0, 1))
def test_matches_reference(shapes, dtype, fmod):
    a, b = (random_array(s, dtype) for s in shapes)
    if dtype.startswith(("i", "u")):
        b = b + 1  # an integer modulo zero is undefined
    else:
        fmod = 1  # before opset 28, float elements need fmod = 1
    check_against_reference("Mod", [a, b], {"fmod": fmod}, opset=OPSET)


@pytest.mark.parametrize("fmod, known", [(0, True), (1, False)])
def test_a_negative_constant_modulo_a_dim(fmod, known):
    # torch.roll(x, 2, dims=1) as the dynamo exporter writes it: split at (-2) mod h
    def i64s(v):
        return {"dtype": "i64", "shape": [1], "data": [v]}

    g = {"opset": OPSET, "inputs": {"x": {"dtype": "f32", "shape": "[b, h]"}},
         "initializers": {"m2": i64s(-2), "zero": i64s(0), "one": i64s(1)},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["h1"],
                    "attrs": {"start": 1, "end": 2}},
                   {"op": "Mod", "inputs": ["m2", "h1"], "outputs": ["k"],
                    "attrs": {"fmod": fmod}},
                   {"op": "Slice", "inputs": ["x", "zero", "k", "one"], "outputs": ["a"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    # floored: in 0..h-1 (the sign of the divisor), so below h: the slice's end, printed
    # without a unary minus ((h - 2)%h is (-2)%h); truncated: -2 for h > 2, not a size
    assert (sol.shape("a") == "[b, (h - 2)%h]") == known
