"""GroupNorm (com.microsoft, CUDA only in onnxruntime): rules on data cases; onnxruntime's
checks accept the shapes the rules accept (its CPU provider has no kernel to compare)."""
import numpy as np
import pytest

from tests.contrib_ops import MS, onnxruntime_verdict
from tests.ops.cases import case_test

SD = {"groups": 32, "activation": 1}  # stable diffusion's
CASES = {
    "NHWC": ({"inputs": ["[n, h, w, 320]", "G", "B"], "attrs": SD},
             {"y0": "[n, h, w, 320]", "x1": "[320]", "x2": "[320]"}),
    "NCHW": ({"inputs": ["[n, 320, h, w]", "G", "B"], "attrs": {**SD, "channels_last": 0}},
             {"y0": "[n, 320, h, w]", "x1": "[320]"}),
    "float16 X, float32 gamma and beta": (
        {"inputs": [("f16", "[n, h, w, 64]"), "G", "B"], "attrs": SD},
        {"dtypes": {"y0": "f16", "x1": "f32"}}),
    "backward from the output": ({"inputs": ["X", "G", "B"], "attrs": SD,
                                  "outputs": {"y0": {"shape": "[2, h, w, 64]"}}},
                                 {"x0": "[2, h, w, 64]", "x1": "[64]"}),
    "channels not in groups": ({"inputs": ["[n, h, w, 300]", "G", "B"], "attrs": SD}, "error"),
    "3-D": ({"inputs": ["[n, s, 320]", "G", "B"], "attrs": SD}, "error"),
    "gamma's size": ({"inputs": ["[n, h, w, 64]", "[32]", "B"], "attrs": SD}, "error"),
    "activation missing": ({"inputs": ["[n, h, w, 64]", "G", "B"], "attrs": {"groups": 32}},
                           "error"),
    "activation 2": ({"inputs": ["[n, h, w, 64]", "G", "B"],
                      "attrs": {"groups": 32, "activation": 2}}, "error"),
    "f64": ({"inputs": [("f64", "[n, h, w, 64]"), "G", "B"], "attrs": SD}, "error"),
}


test_case = case_test("GroupNorm", CASES, domain=MS)


@pytest.mark.parametrize("attrs, verdict", [(SD, "no kernel"), ({"groups": 32}, "rejected")])
def test_onnxruntime_agrees(attrs, verdict):
    arrays = [np.ones((2, 4, 4, 64), np.float32), np.ones(64, np.float32),
              np.ones(64, np.float32)]
    assert onnxruntime_verdict("GroupNorm", arrays, attrs) == verdict
