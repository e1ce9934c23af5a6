"""EmbedLayerNormalization (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np
import pytest

from tests.contrib_ops import check_against_ort, infer_contrib, ort_contrib


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


def _with_position_ids(s, positions):
    rng = np.random.default_rng(1)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    ids = rng.integers(0, 20, (2, s)).astype(np.int32)
    pos = np.arange(positions, dtype=np.int32).reshape(1, positions)
    return [ids, None, f(20, 8), f(16, 8), None, f(8), f(8), None, pos]


def test_position_ids_have_the_ids_sequence_length():
    # onnxruntime: "input_ids and position_ids shall have same sequence_length"; ours the same
    check_against_ort("EmbedLayerNormalization", _with_position_ids(5, 5), n_outputs=3,
                      compare_shapes=(0, 1, 2))
    from shape_logic.kernels import node_kernel

    arrays = _with_position_ids(5, 4)
    with pytest.raises(Exception, match="same sequence_length"):
        ort_contrib("EmbedLayerNormalization", arrays, n_outputs=3)
    bad = infer_contrib("EmbedLayerNormalization",
                        [("i32", "[2, 5]"), None, "[20, 8]", "[16, 8]", None, "[8]", "[8]",
                         None, ("i32", "[1, 4]")], n_outputs=3)
    assert bad.status == "error"
    with pytest.raises(Exception, match="position ids"):
        node_kernel("EmbedLayerNormalization", "com.microsoft", {}, 1, 3)(*arrays)


def test_position_ids_sliced_to_the_sequence_bound_it():
    # DistilBERT's fused embeddings: its 64 positions sliced to the sequence, [1, min(64, s)]
    sol = infer_contrib("EmbedLayerNormalization",
                        [("i32", "[b, s]"), None, "[20, 8]", "[64, 8]", None, "[8]", "[8]",
                         None, ("i32", "[1, min(64, s)]")], n_outputs=3)
    assert sol.status == "ok" and sol.ranges == {"s": [1, 64]}
    assert sol.shape("y0") == "[b, s, 8]"
