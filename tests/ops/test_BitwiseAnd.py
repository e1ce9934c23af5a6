"""BitwiseAnd: rules/BitwiseAnd.lp on data cases, and against onnx's reference on random
shapes."""
from .elementwise import integer_binary_tests

test_case, test_matches_reference = integer_binary_tests("BitwiseAnd")
