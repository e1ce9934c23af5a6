"""BitwiseXor: rules/BitwiseXor.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

OPSET = 18
CASES = {
    "broadcast": ({"inputs": [("i32", "[b, 1, 4]"), ("i32", "[s, 4]")]},
                  {"y0": "[b, s, 4]", "dtypes": {"y0": "i32"}}),
    "unsigned": ({"inputs": [("u8", "[n]"), ("u8", "[]")]}, {"y0": "[n]", "dtypes": {"y0": "u8"}}),
    "backward from the output": ({"inputs": [("i64", "A"), ("i64", "[3]")],
                                  "outputs": {"y0": {"shape": "[2, 3]"}}}, {"y0": "[2, 3]"}),
    "shapes do not broadcast": ({"inputs": [("i32", "[2]"), ("i32", "[3]")]}, "error"),
    "dtypes differ": ({"inputs": [("i32", "[2]"), ("i64", "[2]")]}, "error"),
    "float elements": ({"inputs": ["[2]", "[2]"]}, "error"),
    "bool elements": ({"inputs": [("bool", "[2]"), ("bool", "[2]")]}, "error"),
    "one input": ({"inputs": [("i32", "[2]")]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("BitwiseXor", {"opset": OPSET, **spec}, expected)


@st.composite
def pair(draw):
    a = draw(st.lists(st.integers(1, 4), max_size=3))
    b = [1 if draw(st.booleans()) else d for d in a[draw(st.integers(0, len(a))):]]
    return (a, b) if draw(st.booleans()) else (b, a)


@settings(max_examples=20, deadline=None)
@given(pair(), st.sampled_from(["i8", "i32", "i64", "u8", "u64"]), st.integers(0, 2**32 - 1))
def test_matches_reference(shapes, dtype, seed):
    rng = np.random.default_rng(seed)
    a, b = (random_array(s, dtype, rng) for s in shapes)
    check_against_reference("BitwiseXor", [a, b], None, opset=OPSET)
