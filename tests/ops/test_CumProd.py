"""CumProd: rules/CumProd.lp on data cases, and against onnx's reference on random shapes (the
tests it shares with the other cumulative operator: tests/ops/cumulative.py)."""
from .cumulative import cumulative_tests

test_case, test_matches_reference = cumulative_tests("CumProd", opset=26)
