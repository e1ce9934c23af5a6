"""Sqrt: rules/Sqrt.lp on data cases, and against onnx's reference on random shapes."""
from .elementwise import float_unary_tests

# positive elements: no NaN warnings
test_case, test_matches_reference = float_unary_tests("Sqrt", domain=(1.0, 4.0))
