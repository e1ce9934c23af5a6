"""Max: rules/Max.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array

from .values import i64, values_test
from .elementwise import operand_shapes, variadic_cases
from tests.ops.cases import case_test

OPSET = 18
CASES = variadic_cases("i32", "i64")


test_case = case_test("Max", CASES)


VALUE_CASES = {
    # (float elements that are integers: tf2onnx clamps a strided slice's ends in float32)
    "float sizes": (["[b, s] as f32", np.array([-1e9, 3.0], np.float32)], None,
                    [("Cast", {"to": 7})], "[b, max(3, s)]"),
    "constants": ([i64(2, 7), i64(5, 3)], None, (), "[5, 7]"),
    "a scalar applies to every element": ([i64(2, 7), np.array(4, np.int64)], None, (), "[4, 7]"),
    "symbolic": (["[b, 3]", i64(1, 5)], None, (), "[b, 5]"),
    "one input": ([i64(2, 3)], None, (), "[2, 3]"),
    "uint8 elements": ([np.array([2, 9], np.uint8), np.array([5, 3], np.uint8)], None, (),
                       "[5, 9]"),
    "three inputs: unknown": ([i64(2, 7), i64(5, 3), i64(1, 1)], None, (), None),
}


test_values = values_test("Max", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(None), st.sampled_from(["f32", "f64", "i32", "i64", "u8"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Max", arrays, opset=OPSET)
