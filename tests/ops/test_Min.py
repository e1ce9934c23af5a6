"""Min: rules/Min.lp on data cases, and against onnx's reference on random shapes."""

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
    "dtype": ({"inputs": [("u8", "[n]"), ("u8", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "u8"}}),
    "dtype mix": ({"inputs": [("u8", "[3]"), ("u8", "[3]"), ("i8", "[3]")]}, "error"),
    "output dtype clashes": ({"inputs": [("u8", "[3]")], "outputs": {"y0": {"dtype": "i8"}}},
                             "error"),
    "no inputs": ({"inputs": []}, "error"),
    "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
    "the third input clashes": ({"inputs": ["[2, 3]", "[3]", "[2]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("Min", *CASES[name])


VALUE_CASES = {
    "constants": ([i64(2, 7), i64(5, 3)], None, (), "[2, 3]"),
    "a scalar applies to every element": ([i64(2, 7), np.array(4, np.int64)], None, (), "[2, 4]"),
    "symbolic": (["[b, 8]", i64(1, 4)], None, (), "[1, 4]"),
    "one input": ([i64(2, 3)], None, (), "[2, 3]"),
    "three inputs: unknown": ([i64(2, 7), i64(5, 3), i64(9, 9)], None, (), None),
}


test_values = values_test("Min", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(None), st.sampled_from(["f32", "f64", "i32", "i64", "u8"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    check_against_reference("Min", arrays, opset=OPSET)
