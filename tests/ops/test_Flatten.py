"""Flatten: rules/Flatten.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "default axis 1": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, 768*s]"}),
    "axis 2": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": 2}}, {"y0": "[b*s, 768]"}),
    "axis 0": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": 0}}, {"y0": "[1, 768*b*s]"}),
    "axis = rank": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": 3}}, {"y0": "[768*b*s, 1]"}),
    "negative axis": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": -1}}, {"y0": "[b*s, 768]"}),
    "negative axis -rank": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": -3}},
                            {"y0": "[1, 768*b*s]"}),
    "scalar": ({"inputs": ["[]"], "attrs": {"axis": 0}}, {"y0": "[1, 1]"}),
    "opset 9": ({"inputs": ["[b, 3, 4]"], "opset": 9}, {"y0": "[b, 12]"}),
    "dtype kept": ({"inputs": [("i64", "[2, 3]")]}, {"y0": "[2, 3]", "dtypes": {"y0": "i64"}}),
    "backward: one unknown factor": ({"inputs": ["[b, 3, 4]"],
                                      "outputs": {"y0": {"shape": "[5, 12]"}}},
                                     {"x0": "[5, 3, 4]"}),
    "backward: a product of symbols stays a constraint": (
        {"inputs": ["[b, s, 4]"], "attrs": {"axis": 2}, "outputs": {"y0": {"shape": "[12, 4]"}}},
        {"x0": "[b, s, 4]", "y0": "[12, 4]"}),
    "axis out of range": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": 4}}, "error"),
    "negative axis out of range": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": -4}}, "error"),
    "negative axis before opset 11": ({"inputs": ["[b, s, 768]"], "attrs": {"axis": -1},
                                       "opset": 10}, "error"),
    "output rank clashes": ({"inputs": ["[2, 3]"], "outputs": {"y0": {"shape": "[6]"}}}, "error"),
    "output size clashes": ({"inputs": ["[2, 3]"], "outputs": {"y0": {"shape": "[2, 4]"}}},
                            "error"),
}


test_case = case_test("Flatten", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.data())
def test_matches_reference(shape, data):
    # The reference never rejects an axis (numpy reshapes whatever it gets, and flattens a
    # scalar to [1, 1] for any axis), while ONNX accepts -r..r only (0 for a scalar):
    # out-of-range axes are data cases above.  It also fails on empty tensors (numpy
    # cannot reshape size 0 with -1), which ONNX flattens fine: reference_fails_ok there.
    r = len(shape)
    axis = data.draw(st.integers(-r, r) if r else st.just(0))
    check_against_reference("Flatten", [random_array(shape)], {"axis": axis}, opset=OPSET,
                            reference_fails_ok=0 in shape)
