"""HammingWindow: rules/HammingWindow.lp (HannWindow.lp's shape rules) on data cases,
and against onnx's reference."""
from .windows import window_tests

test_case, test_matches_reference = window_tests("HammingWindow")
