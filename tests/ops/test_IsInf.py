"""IsInf: rules/IsInf.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "dtype": ({"inputs": [("f64", "[n, 3]")]},
              {"y0": "[n, 3]", "dtypes": {"y0": "bool"}}),
    "backward from the output": ({"inputs": ["S"],
                                  "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "output dtype clashes": ({"inputs": ["[2, 3]"],
                              "outputs": {"y0": {"dtype": "f32"}}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
    "integer elements": ({"inputs": [("i64", "[3]")]}, "error"),
    "positive only": ({"inputs": ["[b, 2]"], "attrs": {"detect_negative": 0}},
                      {"y0": "[b, 2]", "dtypes": {"y0": "bool"}}),
}


test_case = case_test("IsInf", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4),
       st.sampled_from(["f16", "f32", "f64"]),
       st.integers(0, 1),
       st.integers(0, 1))
def test_matches_reference(shape, dtype, detect_negative, detect_positive):
    x = random_array(shape, dtype)
    attrs = {"detect_negative": detect_negative, "detect_positive": detect_positive}
    check_against_reference("IsInf", [x], attrs, opset=OPSET)
