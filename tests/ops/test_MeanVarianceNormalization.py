"""MeanVarianceNormalization: rules/MeanVarianceNormalization.lp on data cases, and
against onnx's reference (its function body) on random shapes."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

OP = "MeanVarianceNormalization"

CASES = {
    "default axes": ({"inputs": ["[n, c, h, w]"]}, {"y0": "[n, c, h, w]"}),
    "axes given": ({"inputs": ["[n, c]"], "attrs": {"axes": [1]}}, {"y0": "[n, c]"}),
    "negative axes": ({"inputs": ["[n, c, t]"], "attrs": {"axes": [0, -1]}},
                      {"y0": "[n, c, t]"}),
    "dtype kept": ({"inputs": [("f64", "[2, 3, 4, 5]")]},
                   {"y0": "[2, 3, 4, 5]", "dtypes": {"y0": "f64"}}),
    "opset 9": ({"inputs": ["[n, c, h, w]"], "opset": 9}, {"y0": "[n, c, h, w]"}),
    "backward": ({"inputs": ["x"], "outputs": {"y0": {"shape": "[2, 3, 4, 5]"}}},
                 {"x0": "[2, 3, 4, 5]"}),
    "default axes on a 3-D input": ({"inputs": ["[n, c, h]"]}, "error"),
    "axis out of range": ({"inputs": ["[n, c]"], "attrs": {"axes": [2]}}, "error"),
    "repeated axis": ({"inputs": ["[n, c]"], "attrs": {"axes": [1, -1]}}, "error"),
    "output clash": ({"inputs": ["[n, c, h, w]"], "outputs": {"y0": {"shape": "[n, c, h]"}}},
                     "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case(OP, *CASES[name])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # 0/0 over empty or unit axes
@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4),
       st.none() | st.lists(st.integers(-4, 3), min_size=1, max_size=3))
def test_matches_reference(shape, axes):
    # default axes on fewer than 4 axes, axes out of range or repeated: rejected
    attrs = {} if axes is None else {"axes": axes}
    check_against_reference(OP, [random_array(shape)], attrs)
