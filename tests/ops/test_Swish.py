"""Swish: rules/Swish.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import strategies as st

from .elementwise import float_unary_tests

test_case, test_matches_reference = float_unary_tests(
    "Swish", attrs=st.floats(-2, 2).map(lambda a: {"alpha": a}), opset=24)
