"""BitwiseNot: rules/BitwiseNot.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": [("i32", "[b, s, 768]")]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": [("i64", "[]")]}, {"y0": "[]"}),
    "backward from the output": ({"inputs": [("u8", "S")],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": [("i8", "[2, 3]")],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "two inputs": ({"inputs": [("i8", "[2]"), ("i8", "[2]")]}, "error"),
    "dtype kept": ({"inputs": [("u16", "[n]")]}, {"y0": "[n]", "dtypes": {"y0": "u16"}}),
    "float elements": ({"inputs": ["[3]"]}, "error"),
    "bool elements": ({"inputs": [("bool", "[3]")]}, "error"),
}


test_case = case_test("BitwiseNot", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4),
       st.sampled_from(["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]))
def test_matches_reference(shape, dtype):
    check_against_reference("BitwiseNot", [random_array(shape, dtype)], None, opset=OPSET)
