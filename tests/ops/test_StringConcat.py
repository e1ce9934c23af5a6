"""StringConcat: rules/StringConcat.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings

from shape_logic.testing import check_against_reference, check_case

from .elementwise import operand_shapes
from .strings import string_array

CASES = {
    "broadcast": ({"inputs": [("str", "[b, 1]"), ("str", "[s]")]},
                  {"y0": "[b, s]", "dtypes": {"y0": "str"}}),
    "backward": ({"inputs": [("str", "[n]"), ("str", "[1]")], "outputs": {"y0": {"shape": "[4]"}}},
                 {"x0": "[4]"}),
    "numbers": ({"inputs": ["[2]", "[2]"]}, "error"),
    "shapes that do not broadcast": ({"inputs": [("str", "[2]"), ("str", "[3]")]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("StringConcat", {"opset": 20, **CASES[name][0]}, CASES[name][1])


@settings(max_examples=20, deadline=None)
@given(operand_shapes())
def test_matches_reference(shapes):
    rng = np.random.default_rng(len(shapes[0]))
    arrays = [string_array(rng, s) for s in shapes]
    check_against_reference("StringConcat", arrays, opset=20)
