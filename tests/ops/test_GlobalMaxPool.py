"""GlobalMaxPool: rules/GlobalMaxPool.lp on data cases, and against onnx's reference."""
from .pooling import global_pool_tests

test_case, test_matches_reference = global_pool_tests("GlobalMaxPool", reference_2d_only=True)
