"""Scale: scale * x (scale 1 by default), an experimental ONNX operator onnx dropped.
Its rule file's data cases and its kernel against onnxruntime: tests/ops/legacy_unary.py."""
from tests.ops.legacy_unary import unary_tests

test_case, test_runs_as_onnxruntime, test_matches_onnxruntime = unary_tests(
    "Scale", {"scale": 2.0}, required=False,
    runs=[[(2, 3, 4), "f32", {"scale": 1.5}],
         [(5,), "f16", {}]])
