"""SkipLayerNormalization (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np

from tests.contrib_ops import check_against_ort, infer_contrib


def test_shapes():
    sol = infer_contrib("SkipLayerNormalization", ["[b, s, d]", "S", "G", "B"], n_outputs=4)
    assert sol.shape("y0") == "[b, s, d]" and sol.shape("y3") == "[b, s, d]"
    assert sol.shape("x2") == "[d]" and sol.shape("x3") == "[d]"
    assert sol.dims("x1") is None or sol.shape("x1") == "[b, s, d]"


def test_skip_shaped_like_the_input():
    sol = infer_contrib("SkipLayerNormalization", ["[b, s, d]", "[_, s, d]", "[d]"])
    assert sol.status == "ok"
    bad = infer_contrib("SkipLayerNormalization", ["[b, s, 8]", "[b, s, 8]", "[4]"])
    assert bad.status == "error"


def test_matches_onnxruntime():
    rng = np.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    check_against_ort("SkipLayerNormalization", [f(2, 3, 8), f(2, 3, 8), f(8), f(8), f(8)],
                      n_outputs=4, compare_shapes=(0, 3))
