"""RegexFullMatch: rules/RegexFullMatch.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case

from .strings import shapes, string_array

CASES = {
    "bools of the shape": ({"inputs": [("str", "[b, s]")], "attrs": {"pattern": "[a-z]+"}},
                           {"y0": "[b, s]", "dtypes": {"y0": "bool"}}),
    "no pattern": ({"inputs": [("str", "[b]")]}, "error"),
    "numbers": ({"inputs": ["[2]"], "attrs": {"pattern": "x"}}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("RegexFullMatch", {"opset": 20, **CASES[name][0]}, CASES[name][1])


@settings(max_examples=20, deadline=None)
@given(shapes, st.sampled_from(["[a-z]+", ".*day", "[A-Z]*", r"\w+-\w+-\w+", ""]))
def test_matches_reference(shape, pattern):
    x = string_array(np.random.default_rng(len(shape)), shape)
    check_against_reference("RegexFullMatch", [x], {"pattern": pattern}, opset=20)
