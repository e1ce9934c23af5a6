"""ArgMin: rules/ArgMin.lp on data cases, and against onnx's reference on random shapes."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

OP = "ArgMin"

CASES = {
    "default axis 0, kept": ({"inputs": ["[b, s, h]"]},
                             {"y0": "[1, s, h]", "dtypes": {"y0": "i64"}}),
    "axis 1, kept": ({"inputs": ["[b, s, h]"], "attrs": {"axis": 1}}, {"y0": "[b, 1, h]"}),
    "axis 1, dropped": ({"inputs": ["[b, s, h]"], "attrs": {"axis": 1, "keepdims": 0}},
                        {"y0": "[b, h]"}),
    "negative axis, kept": ({"inputs": ["[b, s, h]"], "attrs": {"axis": -1}},
                            {"y0": "[b, s, 1]"}),
    "negative axis, dropped": ({"inputs": ["[b, s, h]"], "attrs": {"axis": -3, "keepdims": 0}},
                               {"y0": "[s, h]"}),
    "vector to scalar": ({"inputs": ["[n]"], "attrs": {"keepdims": 0}}, {"y0": "[]"}),
    "select_last_index": ({"inputs": ["[b, s]"], "attrs": {"axis": 1, "select_last_index": 1}},
                          {"y0": "[b, 1]"}),
    "integer input": ({"inputs": [("i32", "[b, s]")], "attrs": {"keepdims": 0}},
                      {"y0": "[s]", "dtypes": {"y0": "i64"}}),
    "opset 11 (no select_last_index)": ({"inputs": ["[b, s]"], "attrs": {"axis": -1},
                                          "opset": 11}, {"y0": "[b, 1]"}),
    "empty other axis": ({"inputs": ["[0, 3]"], "attrs": {"axis": 1}}, {"y0": "[0, 1]"}),
    "backward, dropped": ({"inputs": ["x"], "attrs": {"axis": 1, "keepdims": 0},
                           "outputs": {"y0": {"shape": "[2, 3]"}}}, {"x0": "[2, _1, 3]"}),
    "backward, negative axis": ({"inputs": ["x"], "attrs": {"axis": -1, "keepdims": 0},
                                 "outputs": {"y0": {"shape": "[2, 3]"}}},
                                {"x0": "[2, 3, _1]"}),
    "backward, kept": ({"inputs": ["x"], "attrs": {"axis": 0},
                        "outputs": {"y0": {"shape": "[1, n]"}}}, {"x0": "[_1, n]"}),
    "axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axis": 2}}, "error"),
    "negative axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axis": -3}}, "error"),
    "scalar input (runtimes allow it)": ({"inputs": ["[]"], "attrs": {"axis": -1}},
                                          {"y0": "[]"}),
    "scalar input, other axis": ({"inputs": ["[]"], "attrs": {"axis": 1}}, "error"),
    "backward, scalar output": ({"inputs": ["x"], "attrs": {"keepdims": 0},
                                 "outputs": {"y0": {"shape": "[]"}}},
                                {"x0": "x"}),  # rank still unknown: the user's variable
    "empty axis": ({"inputs": ["[2, 0]"], "attrs": {"axis": 1}}, "error"),
    "kept axis is not 1": ({"inputs": ["[b, s]"], "outputs": {"y0": {"shape": "[2, s]"}}},
                           "error"),
    "output dtype": ({"inputs": ["[b, s]"], "outputs": {"y0": {"dtype": "i32"}}}, "error"),
    "two inputs": ({"inputs": ["[b, s]", "[b, s]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case(OP, *CASES[name])


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=3), st.integers(-4, 3), st.integers(0, 1),
       st.integers(0, 1))
def test_matches_reference(shape, axis, keepdims, last):
    # out-of-range axes and empty axes: the reference rejects them (and with
    # select_last_index, scalars too: np.flip of a 0-d array, a reference quirk)
    attrs = {"axis": axis, "keepdims": keepdims, "select_last_index": last}
    check_against_reference(OP, [random_array(shape)], attrs,
                            reference_fails_ok=not shape and last == 1)
