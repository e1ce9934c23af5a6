"""Div: rules/Div.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import LEGACY_BINARY_CASES, arithmetic_cases, operand_shapes
from .values import i64, values_test

OPSET = 18
DEFAULT_ATTRS = None
CASES = {**arithmetic_cases("i32"), **LEGACY_BINARY_CASES}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Div", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


VALUE_CASES = {
    "constants": ([i64(8, 9), i64(2, 3)], None, (), "[4, 3]"),
    "integers truncate toward zero": ([i64(-7), i64(2)], None, ("Neg",), "[3]"),
    "symbolic": (["[b, 768]", i64(1, 12)], None, (), "[b, 64]"),
    "int8 quotients": ([np.array([9], np.int8), np.array([3], np.int8)], None, (), "[3]"),
    "division by zero: unknown": ([i64(8), i64(0)], None, (), None),
}


test_values = values_test("Div", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64"]))
def test_matches_reference(shapes, dtype):
    a, b = (random_array(s, dtype) for s in shapes)
    if dtype.startswith("i"):
        b = b + 1  # integer division by zero is undefined
    check_against_reference("Div", [a, b], opset=OPSET)
