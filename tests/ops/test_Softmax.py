"""Softmax: rules/Softmax.lp on data cases, and against onnx's reference on random shapes."""
from .softmax import softmax_tests

test_case, test_matches_reference = softmax_tests("Softmax")
