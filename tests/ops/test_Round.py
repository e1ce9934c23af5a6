"""Round: rules/Round.lp on data cases, and against onnx's reference on random shapes."""
from .elementwise import float_unary_tests

# values inside the function's domain
test_case, test_matches_reference = float_unary_tests("Round", domain=(-5, 5))
