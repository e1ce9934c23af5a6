"""RMSNormalization: rules/RMSNormalization.lp on data cases, and against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 23
CASES = {
    "shape kept": ({"inputs": ["[b, s, 768]", "[768]"]}, {"y0": "[b, s, 768]"}),
    "the scale's axis from X": ({"inputs": ["[b, s, d]", "[4096]"]},
                                {"x0": "[b, s, 4096]", "bindings": {"d": 4096}}),
    "axis 1, a scale broadcast": ({"inputs": ["[b, s, d]", "[1, d]"], "attrs": {"axis": 1}},
                                  {"y0": "[b, s, d]"}),
    "dtype": ({"inputs": [("f16", "[2, 8]"), ("f16", "[8]")]}, {"dtypes": {"y0": "f16"}}),
    "backward": ({"inputs": ["X", "[8]"], "outputs": {"y0": {"shape": "[n, 8]"}}},
                 {"x0": "[n, 8]"}),
    "the scale does not broadcast": ({"inputs": ["[2, 8]", "[4]"]}, "error"),
    "the scale has more axes": ({"inputs": ["[8]", "[1, 8]"]}, "error"),
    "axis out of range": ({"inputs": ["[2, 8]", "[8]"], "attrs": {"axis": 2}}, "error"),
    "integer elements": ({"inputs": [("i32", "[2, 8]"), ("i32", "[8]")]}, "error"),
    "one input": ({"inputs": ["[2, 8]"]}, "error"),
}


test_case = case_test("RMSNormalization", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
def test_matches_reference(shape, data):
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    cut = data.draw(st.integers(axis % r, r))  # the scale: a suffix of X's axes, some 1s
    sshape = [1 if data.draw(st.booleans()) else d for d in shape[cut:]]
    check_against_reference("RMSNormalization", [random_array(shape), random_array(sshape)],
                            {"axis": axis}, opset=OPSET)
