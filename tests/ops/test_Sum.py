"""Sum: rules/Sum.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array

from .values import i64, values_test
from .elementwise import operand_shapes, variadic_cases
from tests.ops.cases import case_test

OPSET = 18
CASES = variadic_cases("f64", "f32")


test_case = case_test("Sum", CASES)


VALUE_CASES = {
    "constants": ([i64(2, 3), i64(4, 1)], None, (), "[6, 4]"),
    "symbolic": (["[b, s]", i64(0, 3)], None, (), "[b, s + 3]"),
    "one input": ([i64(2, 3)], None, (), "[2, 3]"),
    "int32 may wrap around: unknown": ([np.array([2], np.int32), np.array([3], np.int32)], None, (),
                                       None),
}


test_values = values_test("Sum", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(None), st.sampled_from(["f16", "f32", "f64"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Sum", arrays, opset=OPSET)
