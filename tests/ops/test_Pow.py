"""Pow: rules/Pow.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

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
