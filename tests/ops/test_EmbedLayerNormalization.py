"""EmbedLayerNormalization (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np
import pytest

from shape_logic.kernels import node_kernel
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


def test_positions_without_ids_need_the_rows_of_the_position_table():
    # positions 0..S - 1 read from the table of 16 rows: onnxruntime fails past 16 ("input
    # index out of range"), and so do the rule and the kernel; a symbolic S is then at most
    # 16 (floors.lp's at_most: a range), which fused BERT's 64 positions make seq <= 64
    rng = np.random.default_rng(2)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731

    def arrays(s):
        ids = rng.integers(0, 20, (2, s)).astype(np.int32)
        return [ids, np.zeros((2, s), np.int32), f(20, 8), f(16, 8), f(2, 8), f(8), f(8)]

    check_against_ort("EmbedLayerNormalization", arrays(16), n_outputs=3,
                      compare_shapes=(0, 1, 2))
    with pytest.raises(Exception, match="out of range"):
        ort_contrib("EmbedLayerNormalization", arrays(17), n_outputs=3)
    tables = ["[20, 8]", "[16, 8]", "[2, 8]", "[8]", "[8]"]
    bad = infer_contrib("EmbedLayerNormalization", [("i32", "[2, 17]"), ("i32", "S")] + tables,
                        n_outputs=3)
    assert [d.code for d in bad.diagnostics] and "16 rows" in bad.diagnostics[0].message
    with pytest.raises(Exception, match="position table of 16 rows"):
        node_kernel("EmbedLayerNormalization", "com.microsoft", {}, 1, 3)(*arrays(17))
    sol = infer_contrib("EmbedLayerNormalization", [("i32", "[b, s]"), ("i32", "S")] + tables,
                        n_outputs=3)
    assert sol.status == "ok" and sol.ranges == {"s": [1, 16]}
    assert sol.shape("y0") == "[b, s, 8]"
    # the table's rows symbolic: a floor of them instead (p >= 5 for 5 positions)
    sol = infer_contrib("EmbedLayerNormalization",
                        [("i32", "[2, 5]"), ("i32", "S"), "[20, 8]", "[p, 8]", "[2, 8]",
                         "[8]", "[8]"], n_outputs=3)
    assert sol.status == "ok" and sol.floors == {"p": 5}
