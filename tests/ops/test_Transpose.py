"""Transpose: rules/Transpose.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "perm": ({"inputs": ["[b, s, h, d]"], "attrs": {"perm": [0, 2, 1, 3]}},
             {"y0": "[b, h, s, d]"}),
    "default: reversed": ({"inputs": ["[b, s, d]"]}, {"y0": "[d, s, b]"}),
    "identity perm": ({"inputs": ["[b, s]"], "attrs": {"perm": [0, 1]}}, {"y0": "[b, s]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "perm gives the rank": ({"inputs": ["X"], "attrs": {"perm": [1, 0]}}, {"x0": "[_1, _2]",
                                                                         "y0": "[_2, _1]"}),
    "backward from the output": ({"inputs": ["[b, s, d]"], "attrs": {"perm": [2, 0, 1]},
                                  "outputs": {"y0": {"shape": "[64, 2, t]"}}},
                                 {"x0": "[2, s, 64]", "y0": "[64, 2, s]"}),
    "dtype kept": ({"inputs": [("i64", "[2, 3]")]}, {"y0": "[3, 2]", "dtypes": {"y0": "i64"}}),
    "perm shorter than the rank": ({"inputs": ["[b, s, d]"], "attrs": {"perm": [1, 0]}}, "error"),
    "repeated perm entry": ({"inputs": ["[b, s]"], "attrs": {"perm": [0, 0]}}, "error"),
    "perm entry out of range": ({"inputs": ["[b, s]"], "attrs": {"perm": [0, 2]}}, "error"),
    "negative perm entry (numpy takes it, ONNX does not)": (
        {"inputs": ["[b, s, d]"], "attrs": {"perm": [0, -1, 1]}}, "error"),
    "output clashes": ({"inputs": ["[2, 3]"], "outputs": {"y0": {"shape": "[2, 3]"}}}, "error"),
}


test_case = case_test("Transpose", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.data())
def test_matches_reference(shape, data):
    # permutations, or lists of 0..r that may repeat or miss an axis (the reference rejects
    # those, so must the rules); no negative entries: numpy accepts them, ONNX does not
    r = len(shape)
    if r == 0:  # (onnx's helper cannot make an empty perm)
        perm = None
    elif data.draw(st.booleans()):
        perm = data.draw(st.none() | st.permutations(range(r)))
    else:
        perm = data.draw(st.lists(st.integers(0, r), min_size=r, max_size=r))
    attrs = None if perm is None else {"perm": list(perm)}
    check_against_reference("Transpose", [random_array(shape)], attrs, opset=OPSET)
