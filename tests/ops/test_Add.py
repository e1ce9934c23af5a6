"""Add: rules/Add.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import arithmetic_cases, operand_shapes
from .values import i64, values_test

OPSET = 18
DEFAULT_ATTRS = None
CASES = {**arithmetic_cases("i64")}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Add", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


VALUE_CASES = {
    "constants": ([i64(2, 3), i64(4, 1)], None, (), "[6, 4]"),
    "a scalar applies to every element": ([i64(2, 3), np.array(1, np.int64)], None, (), "[3, 4]"),
    "symbolic": (["[b, s]", i64(0, 3)], None, (), "[b, s + 3]"),
}


test_values = values_test("Add", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Add", arrays, None, opset=OPSET)
