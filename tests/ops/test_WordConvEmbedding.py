"""WordConvEmbedding (com.microsoft): rules/WordConvEmbedding.lp on data cases, and the rules
and the kernel against onnxruntime on random words."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, ms_case

OP = "WordConvEmbedding"
Q = ("i32", "[s, l]")
W, B, C = "[e, 1, 3, 8]", "[e]", "[v, 8]"

CASES = {
    "symbolic": (ms_case([Q, W, B, C]), {"y0": "[s, e]", "dtypes": {"y0": "f32"}}),
    "E from W to B": (ms_case([Q, "[16, 1, 3, 8]", "B", C]), {"x2": "[16]", "y0": "[s, 16]"}),
    "E from B": (ms_case([Q, "W", "[16]", C]), {"y0": "[s, 16]"}),
    "Ce from C to W": (ms_case([Q, "[e, 1, 3, ce]", B, C]), {"x1": "[e, 1, 3, 8]"}),
    "attributes name the sizes": (
        ms_case([Q, "[e, 1, w, ce]", B, "[v, c]"],
                {"embedding_size": 5, "conv_window_size": 2, "char_embedding_size": 4}),
        {"x1": "[5, 1, 2, 4]", "x3": "[v, 4]", "y0": "[s, 5]"}),
    "-1: not given": (ms_case([Q, W, B, C], {"embedding_size": -1}), {"y0": "[s, e]"}),
    "Sequence of rank 3: its axes 0 and 1": (ms_case([("i32", "[s, l, 2]"), W, B, C]),
                                             {"y0": "[s, e]"}),
    "a window as long as a word": (ms_case([("i32", "[s, 3]"), W, B, C]), {"y0": "[s, e]"}),
    "backward from the output": (ms_case([("i32", "Q"), "W", "B", "C"],
                                         outputs={"y0": {"shape": "[4, 7]"}}),
                                 {"x2": "[7]"}),
    "a window longer than a word": (ms_case([("i32", "[s, 2]"), W, B, C]), "error"),
    "C's rows of another length": (ms_case([Q, W, B, "[v, 7]"]), "error"),
    "B of another length": (ms_case([Q, "[5, 1, 3, 8]", "[4]", C]), "error"),
    "B a matrix": (ms_case([Q, W, "[1, e]", C]), "error"),
    "embedding_size not E": (ms_case([Q, "[5, 1, 3, 8]", B, C], {"embedding_size": 6}),
                             "error"),
    "conv_window_size not Wd": (ms_case([Q, W, B, C], {"conv_window_size": 2}), "error"),
    "char_embedding_size not Ce": (ms_case([Q, W, B, C], {"char_embedding_size": 4}),
                                   "error"),
    "a negative attribute": (ms_case([Q, W, B, C], {"embedding_size": -2}), "error"),
    "a vector Sequence": (ms_case([("i32", "[l]"), W, B, C]), "error"),
    "a 3-D W": (ms_case([Q, "[e, 3, 8]", B, C]), "error"),
    "a vector C": (ms_case([Q, W, B, "[8]"]), "error"),
    "int64 ids": (ms_case([("i64", "[s, l]"), W, B, C]), "error"),
    "f64 weights": (ms_case([Q, ("f64", W), ("f64", B), ("f64", C)]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


def words(rng, s, length, v):
    """s words of length..: the first id of each positive, the rest sometimes 0."""
    ids = rng.integers(1, v, (s, length)) * (rng.random((s, length)) < 0.7)
    ids[:, 0] = rng.integers(1, v, s)
    return ids.astype(np.int32)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), s=st.integers(0, 4), length=st.integers(1, 7),
       e=st.integers(0, 5), wd=st.integers(0, 4), ce=st.integers(1, 5), v=st.integers(2, 9),
       give=st.sampled_from(["", "embedding_size", "conv_window_size",
                             "char_embedding_size"]))
def test_matches_onnxruntime(seed, s, length, e, wd, ce, v, give):
    """Windows sometimes longer than the words (rejected); an attribute sometimes given."""
    rng = np.random.default_rng(seed)
    arrays = [words(rng, s, length, v),
              (rng.standard_normal((e, 1, wd, ce)) * 0.3).astype(np.float32),
              (rng.standard_normal(e) * 0.3).astype(np.float32),
              rng.standard_normal((v, ce)).astype(np.float32)]
    attrs = {give: {"embedding_size": e, "conv_window_size": wd,
                    "char_embedding_size": ce}[give]} if give else {}
    want = check_against_onnxruntime(OP, arrays, attrs, rtol=1e-4, atol=1e-5)
    assert (want is None) == (wd > length)


@pytest.mark.parametrize("shapes, attrs", [
    (((3, 2), (5, 1, 3, 4), (5,), (10, 4)), {}), (((3, 6), (5, 1, 2, 4), (5,), (10, 3)), {}),
    (((3, 6), (5, 1, 2, 4), (4,), (10, 4)), {}), (((6,), (5, 1, 2, 4), (5,), (10, 4)), {}),
    (((3, 6), (5, 2, 4), (5,), (10, 4)), {}), (((3, 6), (5, 1, 2, 4), (5,), (4,)), {}),
    (((3, 6), (5, 1, 2, 4), (1, 5), (10, 4)), {}),
    (((3, 6), (5, 1, 2, 4), (5,), (10, 4)), {"embedding_size": 6}),
    (((3, 6), (5, 1, 2, 4), (5,), (10, 4)), {"conv_window_size": 3}),
    (((3, 6), (5, 1, 2, 4), (5,), (10, 4)), {"char_embedding_size": 3}),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, attrs):
    rng = np.random.default_rng(0)
    q = rng.integers(1, 10, shapes[0]).astype(np.int32)
    arrays = [q] + [np.ones(sh, np.float32) for sh in shapes[1:]]
    assert check_against_onnxruntime(OP, arrays, attrs) is None


def test_a_sequence_of_rank_3_is_read_as_its_first_two_axes():
    rng = np.random.default_rng(1)
    arrays = [rng.integers(1, 6, (2, 3, 2)).astype(np.int32),  # (ids all positive)
              (rng.standard_normal((4, 1, 2, 3)) * 0.3).astype(np.float32),
              rng.standard_normal(4).astype(np.float32), rng.standard_normal((6, 3)).astype(
                  np.float32)]
    y, = check_against_onnxruntime(OP, arrays, {})
    assert y.shape == (2, 4)
