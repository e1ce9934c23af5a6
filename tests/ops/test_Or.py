"""Or: rules/Or.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np

from .elementwise import bool_binary_tests
from .values import values_test

test_case, test_matches_reference = bool_binary_tests("Or")


# shape computations on bools: known where both elements are, or where either is true
VALUE_CASES = {
    "constants, true": ([np.array([False, True]), np.array([True, False])], None,
                        [("Cast", {"to": 7})], "[1, 1]"),
    "constants, false": ([np.array([False, False]), np.array([False, False])], None,
                         ["Not", ("Cast", {"to": 7})], "[1, 1]"),
    "a true element decides": (["[b, s] as bool", np.array([True, True])], None,
                               [("Cast", {"to": 7})], "[1, 1]"),
    "a false element does not": (["[b, s] as bool", np.array([False, False])], None,
                                 [("Cast", {"to": 7})], None),
}

test_values = values_test("Or", VALUE_CASES)
