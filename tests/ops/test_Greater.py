"""Greater: rules/Greater.lp on data cases, and against onnx's reference on random shapes."""
from .elementwise import comparison_tests

test_case, test_matches_reference = comparison_tests("Greater", legacy=True)
