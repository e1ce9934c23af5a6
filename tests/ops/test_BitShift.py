"""BitShift: rules/BitShift.lp on data cases, and against onnx's reference on random shapes."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import operand_shapes

OPSET = 18
DEFAULT_ATTRS = {'direction': 'LEFT'}
CASES = {
    "same shapes": ({"inputs": [("u8", "[b, s, 768]"), ("u8", "[b, s, 768]")]},
                    {"y0": "[b, s, 768]"}),
    "trailing axes": ({"inputs": [("u8", "[b, s, 768]"), ("u8", "[768]")]}, {"y0": "[b, s, 768]"}),
    "axes of 1 broadcast": ({"inputs": [("u8", "[b, 1, 768]"), ("u8", "[s, 1]")]},
                            {"y0": "[b, s, 768]"}),
    "scalar operand": ({"inputs": [("u8", "[]"), ("u8", "[b, 3]")]}, {"y0": "[b, 3]"}),
    "symbols that may be 1 stay apart": ({"inputs": [("u8", "[n]"), ("u8", "[m]")]},
                                         {"y0": "[max(m, n)]"}),
    "a literal decides, the symbol stays": ({"inputs": [("u8", "[n]"), ("u8", "[3]")]},
                                            {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": [("u8", "[n, k]"), ("u8", "[k]")],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": [("u8", "[n]"), ("u8", "[m]")],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]"}),
    "dtype": ({"inputs": [("u16", "[n]"), ("u16", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "u16"}}),
    "incompatible axes": ({"inputs": [("u8", "[2, 3]"), ("u8", "[4]")]}, "error"),
    "incompatible after backward inference": ({"inputs": [("u8", "[n]"), ("u8", "[3]")],
                                                "outputs": {"y0": {"shape": "[2]"}}}, "error"),
    "one input": ({"inputs": [("u8", "[3]")]}, "error"),
    "output dtype clashes": ({"inputs": [("u8", "[3]"), ("u8", "[3]")],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "direction is required": ({"inputs": [("u8", "[3]"), ("u8", "[3]")], "attrs": {}}, "error"),
    "unknown direction": ({"inputs": [("u8", "[3]"), ("u8", "[3]")], "attrs": {"direction": "UP"}},
                          "error"),
    "signed before opset 28": ({"inputs": [("i32", "[3]"), ("i32", "[3]")]}, "error"),
    "signed from opset 28": ({"inputs": [("i32", "[b, 3]"), ("i32", "[3]")], "opset": 28},
                             {"y0": "[b, 3]", "dtypes": {"y0": "i32"}}),
    "dtype mix": ({"inputs": [("u8", "[3]"), ("u16", "[3]")]}, "error"),
    "float elements": ({"inputs": ["[3]", "[3]"], "opset": 28}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("BitShift", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["u8", "u16", "u32", "u64"]),
       st.sampled_from(["LEFT", "RIGHT"]))
def test_matches_reference(shapes, dtype, direction):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("BitShift", arrays, {"direction": direction}, opset=OPSET)
