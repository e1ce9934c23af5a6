"""Sub: rules/Sub.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import LEGACY_BINARY_CASES, arithmetic_cases, operand_shapes
from .values import i64, values_test

OPSET = 18
DEFAULT_ATTRS = None
CASES = {**arithmetic_cases("i64"), **LEGACY_BINARY_CASES}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Sub", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


VALUE_CASES = {
    "constants": ([i64(6, 4), i64(2, 1)], None, (), "[4, 3]"),
    "a scalar applies to every element": ([i64(6, 4), np.array(2, np.int64)], None, (), "[4, 2]"),
    "symbolic": (["[b, 8]", i64(0, 3)], None, (), "[b, 5]"),
    "uint8 may wrap around: unknown": ([np.array([3], np.uint8), np.array([5], np.uint8)], None, (),
                                       None),
}


test_values = values_test("Sub", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Sub", arrays, None, opset=OPSET)
