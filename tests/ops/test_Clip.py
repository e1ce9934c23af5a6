"""Clip: rules/Clip.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "bounds as inputs": ({"inputs": ["[b, s, 768]", "[]", "[]"]}, {"y0": "[b, s, 768]"}),
    "no bounds": ({"inputs": ["[b, s]"]}, {"y0": "[b, s]"}),
    "only max": ({"inputs": ["[b, s]", None, "[]"]}, {"y0": "[b, s]"}),
    "a bound of shape [1]": ({"inputs": ["[b, s]", "[1]"]}, {"y0": "[b, s]"}),
    "bounds as attributes (opset 6)": ({"inputs": ["[b, s]"], "attrs": {"min": -1.0, "max": 1.0},
                                        "opset": 6}, {"y0": "[b, s]"}),
    "bounds as inputs before opset 11": ({"inputs": ["[b, s]", "[]"], "opset": 6}, "error"),
    "backward from the output": ({"inputs": ["S", "[]"], "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "integers (opset 13)": ({"inputs": [("i8", "[n, 3]"), ("i8", "[]")]},
                            {"y0": "[n, 3]", "dtypes": {"y0": "i8"}}),
    "a bound of another type": ({"inputs": ["[3]", ("f64", "[]")]}, "error"),
    "output dtype clashes": ({"inputs": ["[3]"], "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "a bound that is not a single value": ({"inputs": ["[3]", "[2]"]}, "error"),
    "output annotation clashes": ({"inputs": ["[2, 3]"], "outputs": {"y0": {"shape": "[3, 2]"}}},
                                  "error"),
    "four inputs": ({"inputs": ["[3]", "[]", "[]", "[]"]}, "error"),
}


test_case = case_test("Clip", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(["f32", "f64", "i32", "i64"]),
       st.sampled_from(["none", "min", "max", "both"]))
def test_matches_reference(shape, dtype, bounds):
    x = random_array(shape, dtype)
    lo, hi = random_array([], dtype), random_array([], dtype)
    arrays = {"none": [x], "min": [x, lo], "max": [x, None, hi], "both": [x, lo, hi]}[bounds]
    check_against_reference("Clip", arrays)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.floats(-2, 0), st.floats(0, 2))
def test_matches_reference_opset6(shape, lo, hi):
    check_against_reference("Clip", [random_array(shape)], {"min": lo, "max": hi}, opset=6)
