"""SkipGroupNorm (com.microsoft, CUDA only in onnxruntime): rules on data cases; onnxruntime's
checks accept the shapes the rules accept (its CPU provider has no kernel to compare)."""
import numpy as np
import pytest

from shape_logic.testing import check_case
from tests.contrib_ops import MS, onnxruntime_verdict

SD = {"groups": 32, "activation": 1}


def case(x, skip, bias=None, attrs=SD):
    return {"inputs": [x, "G", "B", skip] + ([bias] if bias else []), "attrs": attrs,
            "n_outputs": 2, "domain": MS}


CASES = {
    "a skip of X's shape, both outputs": (
        case("[n, h, w, 320]", "K", "Bias"),
        {"y0": "[n, h, w, 320]", "y1": "[n, h, w, 320]", "x1": "[320]", "x4": "[320]"}),
    "a skip [N, 1, 1, C]: its H and W are not derived": (
        case("[n, h, w, 320]", "[n, p, q, c]"), {"x3": "[n, p, q, 320]"}),
    "a skip [N, C]": (case("[n, h, w, 320]", "[n, c]"), {"x3": "[n, 320]"}),
    "NCHW: the outputs": (case("[n, 64, h, w]", "K", attrs={**SD, "channels_last": 0}),
                          {"y1": "[n, 64, h, w]", "x1": "[64]"}),
    "a skip's H neither X's nor 1": (case("[n, 8, 8, 320]", "[n, 4, 1, 320]"), "error"),
    "a 3-D skip": (case("[n, h, w, 320]", "[n, 1, 320]"), "error"),
    "a skip's channels": (case("[n, h, w, 320]", "[n, 64]"), "error"),
    "channels not in groups": (case("[n, h, w, 300]", "K"), "error"),
    "skip of another type": (case("[n, h, w, 64]", ("f16", "K")), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("SkipGroupNorm", spec, expected)


def test_onnxruntime_takes_the_shapes():
    f = lambda *s: np.ones(s, np.float32)  # noqa: E731
    for skip in ((2, 4, 4, 64), (2, 1, 1, 64), (2, 64)):
        arrays = [f(2, 4, 4, 64), f(64), f(64), f(*skip), f(64)]
        assert onnxruntime_verdict("SkipGroupNorm", arrays, SD, 2) == "no kernel", skip
