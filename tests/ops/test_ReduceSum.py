"""ReduceSum: rules/ReduceSum.lp on data cases, and against onnx's reference (the cases every
reduction shares: tests/ops/reductions.py). `axes` is an input since opset 13."""

from .reductions import reduction_tests
from .values import i64, values_test

test_case, test_matches_reference = reduction_tests("ReduceSum", since=13)


# a vector of integers summed whole: its one element
VALUE_CASES = {
    "sizes": (["[b, s]"], None, (), "[b + s]"),
    "constants": ([i64(2, 3, 5)], None, (), "[10]"),
}

test_values = values_test("ReduceSum", VALUE_CASES)
