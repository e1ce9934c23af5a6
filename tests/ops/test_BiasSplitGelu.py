"""BiasSplitGelu (com.microsoft, CUDA only in onnxruntime): rules on data cases; where
onnxruntime's shape inference rejects a graph, so do the rules (its CPU provider has no
kernel to compare)."""
import numpy as np
import pytest

from tests.contrib_ops import MS, onnxruntime_verdict
from tests.ops.cases import case_test

CASES = {
    "stable diffusion's widths": ({"inputs": ["[n, s, 2560]", "B"]},
                                  {"y0": "[n, s, 1280]", "x1": "[2560]"}),
    "symbolic width": ({"inputs": ["[n, s, d]", "B"]}, {"y0": "[n, s, d//2]", "x1": "[d]"}),
    "backward: twice a known half": ({"inputs": ["[n, s, d]", "B"],
                                      "outputs": {"y0": {"shape": "[n, s, 1280]"}}},
                                     {"x0": "[n, s, 2560]", "bindings": {"d": 2560}}),
    "f16": ({"inputs": [("f16", "[n, s, 8]"), ("f16", "[8]")]}, {"dtypes": {"y0": "f16"}}),
    "an odd width": ({"inputs": ["[n, s, 7]", "B"]}, "error"),
    "2-D": ({"inputs": ["[s, 8]", "B"]}, "error"),
    "a 2-D bias": ({"inputs": ["[n, s, 8]", "[1, 8]"]}, "error"),
    "bias's size": ({"inputs": ["[n, s, 8]", "[6]"]}, "error"),
}


test_case = case_test("BiasSplitGelu", CASES, domain=MS)


@pytest.mark.parametrize("shapes, verdict", [
    (((2, 3, 8), (8,)), "no kernel"), (((2, 8), (8,)), "rejected"),
    (((2, 3, 8), (1, 8)), "rejected"),
])
def test_onnxruntime_agrees(shapes, verdict):
    arrays = [np.ones(s, np.float32) for s in shapes]
    assert onnxruntime_verdict("BiasSplitGelu", arrays) == verdict
