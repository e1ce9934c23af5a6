"""BitCast: rules/BitCast.lp on data cases, and against onnx's reference on random shapes
and types of one width."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

CASES = {
    "f32 as i32": ({"inputs": ["[b, s]"], "attrs": {"to": 6}},
                   {"y0": "[b, s]", "dtypes": {"y0": "i32"}}),
    "f16 as bf16": ({"inputs": [("f16", "[n]")], "attrs": {"to": 16}},
                    {"y0": "[n]", "dtypes": {"y0": "bf16"}}),
    "i4 as u4": ({"inputs": [("i4", "[2, 3]")], "attrs": {"to": 21}},
                 {"y0": "[2, 3]", "dtypes": {"y0": "u4"}}),
    "backward: the shape from the output": ({"inputs": ["X"], "attrs": {"to": 6},
                                             "outputs": {"y0": {"shape": "[4, k]"}}},
                                            {"x0": "[4, k]"}),
    "widths differ": ({"inputs": ["[3]"], "attrs": {"to": 7}}, "error"),
    "4 bits as 8": ({"inputs": [("i4", "[3]")], "attrs": {"to": 3}}, "error"),
    "to a string": ({"inputs": ["[3]"], "attrs": {"to": 8}}, "error"),
    "no to": ({"inputs": ["[3]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("BitCast", {"opset": 26, **CASES[name][0]}, CASES[name][1])


SAME_WIDTH = [("f32", 6), ("i32", 1), ("u32", 6), ("f64", 7), ("i64", 13), ("f16", 4),
              ("u16", 10), ("i8", 2), ("u8", 3)]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=3), st.sampled_from(SAME_WIDTH))
def test_matches_reference(shape, pair):
    dtype, to = pair
    check_against_reference("BitCast", [random_array(shape, dtype)], {"to": to}, opset=26)
