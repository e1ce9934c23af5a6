"""Reciprocal: rules/Reciprocal.lp on data cases, and against onnx's reference on random
shapes."""
from .elementwise import float_unary_tests

test_case, test_matches_reference = float_unary_tests("Reciprocal")
