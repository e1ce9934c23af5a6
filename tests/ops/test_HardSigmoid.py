"""HardSigmoid: rules/HardSigmoid.lp on data cases, and against onnx's reference."""
from hypothesis import strategies as st

from .elementwise import float_unary_tests

ATTRS = st.fixed_dictionaries({"alpha": st.floats(0.01, 2.0), "beta": st.floats(-1.0, 1.0)})
test_case, test_matches_reference = float_unary_tests("HardSigmoid", attrs=ATTRS)
