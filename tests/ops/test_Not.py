"""Not: rules/Not.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": [("bool", "[b, s, 768]")]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": [("bool", "[]")]}, {"y0": "[]"}),
    "dtype": ({"inputs": [("bool", "[n, 3]")]},
              {"y0": "[n, 3]", "dtypes": {"y0": "bool"}}),
    "backward from the output": ({"inputs": [("bool", "S")],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": [("bool", "[2, 3]")],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "output dtype clashes": ({"inputs": [("bool", "[2, 3]")],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "two inputs": ({"inputs": [("bool", "[2]"), ("bool", "[2]")]}, "error"),
    "float elements": ({"inputs": ["[3]"]}, "error"),
    "bool is derived backwards": ({"inputs": ["[3]"], "outputs": {"y0": {"dtype": "i64"}}},
                                  "error"),
}


test_case = case_test("Not", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4),
       st.sampled_from(["bool"]))
def test_matches_reference(shape, dtype):
    x = random_array(shape, dtype)
    check_against_reference("Not", [x], None, opset=OPSET)
