"""ArgMin: rules/ArgMin.lp on data cases, and against onnx's reference on random shapes."""
from .reductions import arg_reduction_tests

test_case, test_matches_reference = arg_reduction_tests("ArgMin")
