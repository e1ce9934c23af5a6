"""And: rules/And.lp on data cases, and against onnx's reference on random shapes."""
from .elementwise import bool_binary_tests

test_case, test_matches_reference = bool_binary_tests("And")
