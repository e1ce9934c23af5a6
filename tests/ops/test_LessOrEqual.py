"""LessOrEqual: rules/LessOrEqual.lp on data cases, and against onnx's reference."""
from .elementwise import comparison_tests

test_case, test_matches_reference = comparison_tests("LessOrEqual", legacy=False)
