"""LpPool: rules/LpPool.lp on data cases, and against onnx's reference."""
from .pooling import common_pool_tests, one_output_cases

CASES = one_output_cases({"p": 3})

test_case, test_backward_range, test_matches_reference = common_pool_tests(
    "LpPool", CASES, "p", [1, 2, 3])
