"""EmbedLayerNormalization (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np

from tests.contrib_ops import check_against_ort, infer_contrib


def test_shapes():
    sol = infer_contrib("EmbedLayerNormalization",
                        [("i32", "[b, s]"), ("i32", "S"), "[v, h]", "P", "T", "G", "B"],
                        n_outputs=3)
    assert sol.shape("y0") == "[b, s, h]" and sol.shape("y2") == "[b, s, h]"
    assert sol.shape("y1") == "[b]" and sol.dtype("y1") == "i32"
    assert sol.shape("x1") == "[b, s]" and sol.shape("x5") == "[h]"
    bad = infer_contrib("EmbedLayerNormalization",
                        [("i32", "[b, s]"), None, "[v, 8]", "[64, 8]", None, "[4]", "[8]"])
    assert bad.status == "error"


def test_matches_onnxruntime():
    rng = np.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    ids = rng.integers(0, 20, (2, 5)).astype(np.int32)
    seg = rng.integers(0, 2, (2, 5)).astype(np.int32)
    mask = np.ones((2, 5), np.int32)
    check_against_ort("EmbedLayerNormalization",
                      [ids, seg, f(20, 8), f(16, 8), f(2, 8), f(8), f(8), mask],
                      n_outputs=3, compare_shapes=(0, 1, 2))
