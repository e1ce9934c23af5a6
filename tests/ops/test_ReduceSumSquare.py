"""ReduceSumSquare: rules/ReduceSumSquare.lp on data cases, and against onnx's reference
(the cases every reduction shares: tests/ops/reductions.py). `axes` is an input since opset 18."""
from .reductions import reduction_tests

test_case, test_matches_reference = reduction_tests("ReduceSumSquare")
