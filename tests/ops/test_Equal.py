"""Equal: rules/Equal.lp on data cases, and against onnx's reference on random shapes."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import operand_shapes

OPSET = 18
DEFAULT_ATTRS = None
CASES = {
    "same shapes": ({"inputs": ["[b, s, 768]", "[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "trailing axes": ({"inputs": ["[b, s, 768]", "[768]"]}, {"y0": "[b, s, 768]"}),
    "axes of 1 broadcast": ({"inputs": ["[b, 1, 768]", "[s, 1]"]},
                            {"y0": "[b, s, 768]"}),
    "scalar operand": ({"inputs": ["[]", "[b, 3]"]}, {"y0": "[b, 3]"}),
    "symbols that may be 1 stay apart": ({"inputs": ["[n]", "[m]"]},
                                         {"y0": "[max(m, n)]"}),
    "a literal decides, the symbol stays": ({"inputs": ["[n]", "[3]"]},
                                            {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": ["[n, k]", "[k]"],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": ["[n]", "[m]"],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]"}),
    "dtype": ({"inputs": [("f16", "[n]"), ("f16", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "bool"}}),
    "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
    "incompatible after backward inference": ({"inputs": ["[n]", "[3]"],
                                                "outputs": {"y0": {"shape": "[2]"}}}, "error"),
    "one input": ({"inputs": ["[3]"]}, "error"),
    "dtype mix": ({"inputs": [("f32", "[3]"), ("i64", "[3]")]}, "error"),
    "bool output": ({"inputs": ["[3]", "[3]"],
                     "outputs": {"y0": {"dtype": "f32"}}}, "error"),
    "opset 6, broadcast from axis 1": (
        {"inputs": ["[2, 3, 4, 5]", "[3, 4]"], "opset": 6,
         "attrs": {"broadcast": 1, "axis": 1}},
        {"y0": "[2, 3, 4, 5]"}),
    "opset 6 without broadcast: one shape": (
        {"inputs": ["[n, 3]", "[2, m]"], "opset": 6},
        {"y0": "[2, 3]", "x0": "[2, 3]"}),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Equal", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64", "u8"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Equal", arrays, None, opset=OPSET)
