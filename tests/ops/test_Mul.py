"""Mul: rules/Mul.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import LEGACY_BINARY_CASES, arithmetic_cases, operand_shapes
from .values import i64, values_test

OPSET = 18
DEFAULT_ATTRS = None
CASES = {**arithmetic_cases("f64"), **LEGACY_BINARY_CASES}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Mul", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


VALUE_CASES = {
    "constants": ([i64(2, 3), i64(4, 1)], None, (), "[8, 3]"),
    "symbolic": (["[b, s]", i64(2, 1)], None, (), "[2*b, s]"),
    # (an int32 product of two sizes may wrap around)
    "int32 product of sizes: unknown": (["[b, s] as i32", "[b, s] as i32"], None,
                                        [("Cast", {"to": 7})], None),
    "int8 may wrap around: unknown": ([np.array([100], np.int8), np.array([2], np.int8)], None, (),
                                      None),
}


test_values = values_test("Mul", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Mul", arrays, None, opset=OPSET)
