"""Abs: rules/Abs.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "dtype": ({"inputs": [("i32", "[n, 3]")]},
              {"y0": "[n, 3]", "dtypes": {"y0": "i32"}}),
    "backward from the output": ({"inputs": ["S"],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "output dtype clashes": ({"inputs": ["[2, 3]"],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
}


test_case = case_test("Abs", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4),
       st.sampled_from(["f32", "f64", "i8", "i32", "i64", "u8"]))
def test_matches_reference(shape, dtype):
    x = random_array(shape, dtype)
    check_against_reference("Abs", [x], None, opset=OPSET)
