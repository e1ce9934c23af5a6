"""Sum: rules/Sum.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

from .values import i64, values_test
from .elementwise import operand_shapes

OPSET = 18
CASES = {
    "one input": ({"inputs": ["[b, s]"]}, {"y0": "[b, s]"}),
    "two inputs broadcast": ({"inputs": ["[b, 1, 768]", "[s, 1]"]},
                             {"y0": "[b, s, 768]"}),
    "three inputs broadcast": ({"inputs": ["[b, 1, 1]", "[s, 1]", "[768]"]},
                               {"y0": "[b, s, 768]"}),
    "symbols that may be 1 stay apart": ({"inputs": ["[n]", "[m]", "[k]"]},
                                         {"y0": "[max(k, max(m, n))]"}),
    "a literal decides": ({"inputs": ["[n]", "[3]", "[1]"]},
                          {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": ["[n, k]", "[k]", "[1]"],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": ["[n]", "[m]", "[p]"],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]", "x2": "[1]"}),
    "dtype": ({"inputs": [("f64", "[n]"), ("f64", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "f64"}}),
    "dtype mix": ({"inputs": [("f64", "[3]"), ("f64", "[3]"), ("f32", "[3]")]}, "error"),
    "output dtype clashes": ({"inputs": [("f64", "[3]")], "outputs": {"y0": {"dtype": "f32"}}},
                             "error"),
    "no inputs": ({"inputs": []}, "error"),
    "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
    "the third input clashes": ({"inputs": ["[2, 3]", "[3]", "[2]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("Sum", *CASES[name])


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
