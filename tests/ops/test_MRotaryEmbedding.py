"""MRotaryEmbedding (com.microsoft): rules/MRotaryEmbedding.lp on data cases, and the rules
and the kernel against onnxruntime (both layouts, 3-D and 4-D X, partial rotation)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

SEC = {"mrope_section": [2, 1, 1]}
P = ("i64", "P")  # position ids (an input is f32 unless given)
CASES = {
    "4-D: the head size and the caches from mrope_section": (
        {"inputs": ["[b, h, s, d]", P, "C", "S"], "attrs": SEC},
        {"y0": "[b, h, s, 8]", "x1": "[3, b, s]", "x2": "[_1, 4]", "x3": "[_1, 4]"}),
    "3-D: the hidden size is num_heads head sizes": (
        {"inputs": ["[b, s, e]", P, "[m, 4]", "[m, 4]"], "attrs": {**SEC, "num_heads": 3}},
        {"y0": "[b, s, 24]", "x1": "[3, b, s]", "dtypes": {"x1": "i64"}}),
    "partial rotation keeps the head size open": (
        {"inputs": ["[b, s, e]", P, "[m, 2]", "[m, 2]"],
         "attrs": {"mrope_section": [1, 1, 0], "num_heads": 2, "rotary_embedding_dim": 4}},
        {"y0": "[b, s, e]"}),
    "f16": ({"inputs": [("f16", "[b, 2, s, 8]"), ("i64", "[3, b, s]"), ("f16", "C"),
                       ("f16", "S")], "attrs": SEC},
            {"y0": "[b, 2, s, 8]", "x2": "[_1, 4]", "dtypes": {"y0": "f16"}}),
    "backward from the output": (
        {"inputs": ["X", ("i64", "[3, 2, 5]"), "[m, 4]", "[m, 4]"], "attrs": SEC,
         "outputs": {"y0": {"shape": "[2, 7, 5, d]"}}}, {"x0": "[2, 7, 5, 8]"}),
    "a head size not 2 H": ({"inputs": ["[b, h, s, 6]", P, "C", "S"], "attrs": SEC}, "error"),
    "a cache of the wrong width": ({"inputs": ["X", P, "[m, 3]", "S"], "attrs": SEC},
                                   "error"),
    "caches of two lengths": ({"inputs": ["X", P, "[9, 4]", "[10, 4]"], "attrs": SEC},
                              "error"),
    "position ids of 2 streams": ({"inputs": ["X", ("i64", "[2, b, s]"), "C", "S"], "attrs": SEC},
                                  "error"),
    "position ids of another batch": (
        {"inputs": ["[2, s, 16]", ("i64", "[3, 1, s]"), "C", "S"],
         "attrs": {**SEC, "num_heads": 2}},
        "error"),
    "3-D without num_heads": ({"inputs": ["[b, s, 16]", P, "C", "S"], "attrs": SEC}, "error"),
    "hidden size not a multiple of num_heads": (
        {"inputs": ["[b, s, 16]", P, "[m, 2]", "S"],
         "attrs": {"mrope_section": [1, 1, 0], "num_heads": 3, "rotary_embedding_dim": 4}},
        "error"),
    "rotary dim not twice the sections": (
        {"inputs": ["[b, 2, s, 8]", P, "C", "S"],
         "attrs": {**SEC, "num_heads": 2, "rotary_embedding_dim": 4}}, "error"),
    "rotary dim beyond the head": (
        {"inputs": ["[b, 2, s, 8]", P, "C", "S"],
         "attrs": {"mrope_section": [2, 2, 2], "num_heads": 2, "rotary_embedding_dim": 12}},
        "error"),
    "two sections": ({"inputs": ["X", P, "C", "S"], "attrs": {"mrope_section": [2, 2]}},
                     "error"),
    "a negative section": ({"inputs": ["X", P, "C", "S"],
                            "attrs": {"mrope_section": [3, 2, -1]}}, "error"),
    "no mrope_section": ({"inputs": ["[b, 2, s, 8]", P, "C", "S"]}, "error"),
    "layout 2": ({"inputs": ["X", P, "C", "S"], "attrs": {**SEC, "mrope_layout": 2}},
                 "error"),
    "a 2-D X": ({"inputs": ["[s, 8]", P, "C", "S"], "attrs": SEC}, "error"),
    "float position ids": ({"inputs": ["X", "P", "C", "S"], "attrs": SEC}, "error"),
    "int32 position ids": ({"inputs": ["X", ("i32", "P"), "C", "S"], "attrs": SEC}, "error"),
    "f16 caches for an f32 X": ({"inputs": ["X", P, ("f16", "C"), "S"], "attrs": SEC},
                                "error"),
}


test_case = case_test("MRotaryEmbedding", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(1, 2), s=st.integers(1, 3),
       heads=st.integers(1, 3), sec=st.sampled_from([[2, 1, 1], [1, 2, 1], [0, 2, 2], [1, 1, 0],
                                                     [3, 1, 2]]),
       extra=st.sampled_from([0, 0, 2, 4]), rank=st.sampled_from([3, 4]),
       layout=st.integers(0, 1), interleaved=st.integers(0, 1),
       dtype=st.sampled_from([np.float32, np.float16]), bad=st.sampled_from([None] * 4 + [
           "heads", "cache", "pos"]))
def test_matches_onnxruntime(seed, b, s, heads, sec, extra, rank, layout, interleaved, dtype,
                             bad):
    """extra: the head has that many features more than the rotated 2 H (then
    rotary_embedding_dim is given); bad: one thing onnxruntime rejects."""
    rng = np.random.default_rng(seed)
    half, m = sum(sec), 6
    head = 2 * half + extra
    x = rng.standard_normal((b, s, heads * head) if rank == 3 else (b, heads, s, head))
    pos = rng.integers(0, m, (3, b, s)).astype(np.int64)
    cw = half + (1 if bad == "cache" else 0)
    cos, sin = rng.standard_normal((m, cw)), rng.standard_normal((m, cw))
    if bad == "pos":
        pos = pos[:2]
    attrs = {"mrope_section": sec, "mrope_layout": layout, "interleaved": interleaved}
    if rank == 3 or extra:
        attrs["num_heads"] = heads + (1 if bad == "heads" else 0)
    if extra:
        attrs["rotary_embedding_dim"] = 2 * half
    tol = 2e-2 if dtype == np.float16 else 1e-5
    got = check_against_onnxruntime(
        "MRotaryEmbedding", [x.astype(dtype), pos, cos.astype(dtype), sin.astype(dtype)],
        attrs, rtol=tol, atol=tol)
    if bad is None or (bad == "heads" and rank == 4):
        assert got is not None
