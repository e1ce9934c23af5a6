"""LeakyRelu: rules/LeakyRelu.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import strategies as st

from .elementwise import float_unary_tests

ATTRS = st.fixed_dictionaries({"alpha": st.floats(0.01, 2.0)})
test_case, test_matches_reference = float_unary_tests("LeakyRelu", attrs=ATTRS)
