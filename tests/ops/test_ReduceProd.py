"""ReduceProd: rules/ReduceProd.lp on data cases, and against onnx's reference (the cases every
reduction shares: tests/ops/reductions.py). `axes` is an input since opset 18."""
import numpy as np

from .reductions import reduction_tests
from .values import i64, values_test

test_case, test_matches_reference = reduction_tests("ReduceProd")


# a vector of sizes multiplied whole (tf2onnx's einsum, torch's flatten): its one element;
# int32 sizes only where the type holds the product (one size: a product of two may wrap)
VALUE_CASES = {
    "sizes": (["[b, s]"], {"keepdims": 1}, (), "[b*s]"),
    "three sizes": (["[b, 4, s]"], None, (), "[4*b*s]"),
    "the one axis listed": (["[b, 4]", i64(0)], None, (), "[4*b]"),
    "constants": ([i64(2, 3, 5)], None, (), "[30]"),
    "int32 sizes: one is held": (["[b, 3] as i32"], None, [("Cast", {"to": 7})], "[3*b]"),
    "int32 sizes: a product may wrap around": (["[b, s] as i32"], None,
                                               [("Cast", {"to": 7})], None),
    "noop: no element": (["[b, s]", np.array([], np.int64)], {"noop_with_empty_axes": 1}, (),
                         "[b, s]"),
}

test_values = values_test("ReduceProd", VALUE_CASES)
