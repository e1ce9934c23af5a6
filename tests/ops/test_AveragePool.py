"""AveragePool: rules/AveragePool.lp on data cases, and against onnx's reference."""
from .pooling import common_pool_tests, one_output_cases

# (AveragePool has dilations since opset 19)
CASES = one_output_cases({"count_include_pad": 1}, dilations_opset=19)

test_case, test_backward_range, test_matches_reference = common_pool_tests(
    "AveragePool", CASES, "count_include_pad", [0, 1], opset=19)
