"""ThresholdedRelu: rules/ThresholdedRelu.lp on data cases, and against onnx's reference
on random shapes."""
from hypothesis import strategies as st

from .elementwise import float_unary_tests

test_case, test_matches_reference = float_unary_tests(
    "ThresholdedRelu", attrs=st.floats(-1, 2).map(lambda a: {"alpha": a}), opset=18)
