"""HannWindow: rules/HannWindow.lp (HannWindow.lp's shape rules) on data cases, and against onnx's
reference."""
from .windows import check_size_from_a_shape, window_tests

test_case, test_matches_reference = window_tests("HannWindow")


def test_size_from_a_shape():
    check_size_from_a_shape()
