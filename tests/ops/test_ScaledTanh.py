"""ScaledTanh: alpha * tanh(beta * x), both required, an experimental ONNX operator onnx dropped.
Its rule file's data cases and its kernel against onnxruntime: tests/ops/legacy_unary.py."""
from tests.ops.legacy_unary import unary_tests

test_case, test_runs_as_onnxruntime, test_matches_onnxruntime = unary_tests(
    "ScaledTanh", {"alpha": 2.0, "beta": 0.5}, required=True,
    runs=[[(2, 3, 4), "f32", {"alpha": 1.5, "beta": 0.7}],
         [(5,), "f16", {"alpha": -1.0, "beta": 2.0}]])
