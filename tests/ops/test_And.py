"""And: rules/And.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np

from .elementwise import bool_binary_tests
from .values import values_test

test_case, test_matches_reference = bool_binary_tests("And")


# shape computations on bools: known where both elements are, or where either is false
# (tf2onnx's strided slices: `Equal(end, 1e9) and Less(stride, 0)`); read as a target of
# ones (a 0 in Reshape's target copies a dim), through Not where false
VALUE_CASES = {
    "constants, true": ([np.array([True, True]), np.array([True, True])], None,
                        [("Cast", {"to": 7})], "[1, 1]"),
    "constants, false": ([np.array([False, True]), np.array([True, False])], None,
                         ["Not", ("Cast", {"to": 7})], "[1, 1]"),
    "a false element decides": (["[b, s] as bool", np.array([False, False])], None,
                                ["Not", ("Cast", {"to": 7})], "[1, 1]"),
    "a true element does not": (["[b, s] as bool", np.array([True, True])], None,
                                ["Not", ("Cast", {"to": 7})], None),
}

test_values = values_test("And", VALUE_CASES)
