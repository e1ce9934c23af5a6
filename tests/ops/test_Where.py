"""Where: rules/Where.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array

from .elementwise import operand_shapes
from tests.ops.cases import case_test

CASES = {
    "three-way broadcast": ({"inputs": [("bool", "[b, 1, 1]"), "[s, 1]", "[768]"]},
                            {"y0": "[b, s, 768]"}),
    "the condition alone has the shape": ({"inputs": [("bool", "[b, s]"), "[]", "[]"]},
                                          {"y0": "[b, s]"}),
    "symbols that may be 1 stay apart": ({"inputs": [("bool", "[n]"), "[m]", "[k]"]},
                                         {"y0": "[max(k, max(m, n))]"}),
    "a literal decides": ({"inputs": [("bool", "[n]"), "[1]", "[3]"]}, {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": [("bool", "[n]"), "[1, n]", "[k, 1]"],
                                  "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[7]", "x1": "[1, 7]", "x2": "[4, 1]"}),
    "an output axis of 1 needs 1s": ({"inputs": [("bool", "[n]"), "[m]", "[p]"],
                                      "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]", "x2": "[1]"}),
    "dtype": ({"inputs": [("bool", "[n]"), ("i64", "[n]"), ("i64", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "i64"}}),
    "the condition is bool": ({"inputs": [("f32", "[3]"), "[3]", "[3]"]}, "error"),
    "X and Y of one type": ({"inputs": [("bool", "[3]"), ("f32", "[3]"), ("f64", "[3]")]},
                            "error"),
    "output dtype clashes": ({"inputs": [("bool", "[3]"), "[3]", "[3]"],
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "incompatible axes": ({"inputs": [("bool", "[2]"), "[3]", "[1]"]}, "error"),
    "Y clashes with the condition": ({"inputs": [("bool", "[2, 1]"), "[1, 3]", "[3, 3]"]},
                                     "error"),
    "two inputs": ({"inputs": [("bool", "[3]"), "[3]"]}, "error"),
}


test_case = case_test("Where", CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(3), st.sampled_from(["f32", "f64", "i64", "u8", "bool"]))
def test_matches_reference(shapes, dtype):
    c, x, y = shapes
    arrays = [random_array(c, "bool"), random_array(x, dtype), random_array(y, dtype)]
    check_against_reference("Where", arrays)
