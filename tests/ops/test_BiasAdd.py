"""BiasAdd (com.microsoft, CUDA only in onnxruntime): rules on data cases; onnxruntime's
checks accept the shapes the rules accept (its CPU provider has no kernel to compare)."""
import numpy as np

from tests.contrib_ops import MS, onnxruntime_verdict
from tests.ops.cases import case_test

CASES = {
    "symbolic": ({"inputs": ["[n, s, c]", "B", "K"]},
                 {"y0": "[n, s, c]", "x1": "[c]", "x2": "[n, s, c]"}),
    "backward from the output": ({"inputs": ["X", "[320]", "K"],
                                  "outputs": {"y0": {"shape": "[2, s, c]"}}},
                                 {"x0": "[2, s, 320]", "x2": "[2, s, 320]"}),
    "f16": ({"inputs": [("f16", "[n, s, 4]"), ("f16", "[4]"), ("f16", "[n, s, 4]")]},
            {"dtypes": {"y0": "f16"}}),
    "4-D": ({"inputs": ["[n, h, w, c]", "B", "K"]}, "error"),
    "bias's size": ({"inputs": ["[n, s, 4]", "[5]", "K"]}, "error"),
    "skip's shape": ({"inputs": ["[n, 3, 4]", "B", "[n, 1, 4]"]}, "error"),
    "f64": ({"inputs": [("f64", "[n, s, 4]"), ("f64", "B"), ("f64", "K")]}, "error"),
}


test_case = case_test("BiasAdd", CASES, domain=MS)


def test_onnxruntime_takes_the_shapes():
    f = lambda *s: np.ones(s, np.float32)  # noqa: E731
    assert onnxruntime_verdict("BiasAdd", [f(2, 3, 8), f(8), f(2, 3, 8)]) == "no kernel"
