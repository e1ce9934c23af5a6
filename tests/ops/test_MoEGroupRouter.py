"""MoEGroupRouter (com.microsoft): rules/MoEGroupRouter.lp on data cases (router_probs, and
the full-score pair selection_scores and router_weights after an absent router_probs, with
and without projection_weight), and the rules and the kernel against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic import solve
from shape_logic.graph import dtype_of_array
from shape_logic.kernels import load_kernel
from shape_logic.testing import node_graph
from tests.contrib_ops import MS, check_against_onnxruntime, ort_contrib
from tests.ops.cases import case_test

OP = "MoEGroupRouter"
K2 = {"top_k": 2}

CASES = {
    "router_probs [rows, E]": ({"inputs": ["[t, 8]", "[8]"], "attrs": K2}, {"y0": "[t, 8]"}),
    "the rows: the leading axes' product": ({"inputs": ["[b, s, e]", "B"], "attrs": K2},
                                            {"y0": "[b*s, e]", "x1": "B"}),
    "a scalar expert_bias: one expert": ({"inputs": ["[b, s, e]", "[]"], "attrs": {"top_k": 1}},
                                         {"y0": "[b*s, 1]"}),
    "grouped": ({"inputs": ["[t, 16]", "[16]"],
                 "attrs": {"top_k": 4, "n_group": 4, "topk_group": 2, "group_topk": 2}},
                {"y0": "[t, 16]"}),
    "expert_bias read flat": ({"inputs": ["[t, 8]", "[2, 4]"], "attrs": K2}, {"y0": "[t, 8]"}),
    "f16": ({"inputs": [("f16", "[t, 8]"), "[8]"], "attrs": K2},
            {"y0": "[t, 8]", "dtypes": {"y0": "f16"}}),
    "no top_k": ({"inputs": ["[t, 8]", "[8]"]}, "error"),
    "top_k 0": ({"inputs": ["[t, 8]", "[8]"], "attrs": {"top_k": 0}}, "error"),
    "group_topk 0": ({"inputs": ["[t, 8]", "[8]"], "attrs": {"top_k": 1, "group_topk": 0}},
                     "error"),
    "top_k above the experts": ({"inputs": ["[t, 8]", "[8]"], "attrs": {"top_k": 9}}, "error"),
    "experts no multiple of n_group": (
        {"inputs": ["[t, 8]", "[8]"], "attrs": {"top_k": 2, "n_group": 3}}, "error"),
    "topk_group above n_group": (
        {"inputs": ["[t, 8]", "[8]"], "attrs": {"top_k": 2, "n_group": 2, "topk_group": 3}},
        "error"),
    "logits of rank 1": ({"inputs": ["[8]", "[8]"], "attrs": K2}, "error"),
    "no expert": ({"inputs": ["[t, 0]", "[0]"], "attrs": {"top_k": 1}}, "error"),
    "expert_bias of another length": ({"inputs": ["[t, 8]", "[7]"], "attrs": K2}, "error"),
    "f16 expert_bias": ({"inputs": ["[t, 8]", ("f16", "[8]")], "attrs": K2}, "error"),
    "double": ({"inputs": [("f64", "[t, 8]"), "[8]"], "attrs": K2}, "error"),
    "all three outputs": ({"inputs": ["[t, 8]", "[8]"], "attrs": K2, "n_outputs": 3},
                          "error"),
    "projection_weight with router_probs": (
        {"inputs": ["[t, 256]", "[8]", "[8, 256]"], "attrs": K2}, "error"),
}

test_case = case_test(OP, CASES, domain=MS)


def full_graph(inputs, attrs):
    """One node giving selection_scores (y1) and router_weights (y2), router_probs absent."""
    g = node_graph(OP, inputs, attrs, 3, domain=MS)
    g["nodes"][0]["outputs"][0] = ""
    return g


FULL_CASES = {
    "the full-score pair": ((["[b, s, 8]", "[8]"], K2), {"y1": "[b*s, 8]", "y2": "[b*s, 8]"}),
    "projected": ((["[t, 512]", "B", "[e, w]"], K2),
                  {"y1": "[t, e]", "y2": "[t, e]", "x0": "[t, 512]", "x1": "[e]"}),
    "projected, symbolic width": ((["[t, w]", "B", "[e, w]"], K2), {"y1": "[t, e]"}),
    "two groups": ((["[t, 8]", "[8]"], {"top_k": 2, "n_group": 2}), "error"),
    "513 experts": ((["[t, 513]", "[513]"], K2), "error"),
    "a width no multiple of 256": ((["[t, 128]", "[8]", "[8, 128]"], K2), "error"),
    "projected activations of rank 3": ((["[b, t, 256]", "[8]", "[8, 256]"], K2), "error"),
    "projected, a 2-D expert_bias": ((["[t, 256]", "[1, 8]", "[8, 256]"], K2), "error"),
    "projected, another width": ((["[t, 256]", "[8]", "[8, 512]"], K2), "error"),
    "projected, top_k above the experts": ((["[t, 256]", "[8]", "[8, 256]"], {"top_k": 9}),
                                           "error"),
}


@pytest.mark.parametrize("name", FULL_CASES)
def test_full_score_case(name):
    (inputs, attrs), want = FULL_CASES[name]
    sol = solve(full_graph(inputs, attrs))
    if want == "error":
        assert sol.status == "error"
        return
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert {t: sol.shape(t) for t in want} == want
    assert sol.dtype("y1") == sol.dtype("y2") == "f32"


def ort_full(arrays, attrs):
    """onnxruntime's (selection_scores, router_weights), router_probs absent."""
    return ort_contrib(OP, arrays, attrs, 3, absent=(0,))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), min_size=1,
                                                      max_size=2),
       e=st.sampled_from([1, 2, 4, 6, 8, 12]), groups=st.integers(1, 4),
       topk_group=st.integers(1, 4), top_k=st.integers(0, 9), group_topk=st.integers(1, 3),
       bias=st.sampled_from(["vector", "vector", "flat", "longer"]),
       dtype=st.sampled_from([np.float32, np.float16]))
def test_router_probs_match_onnxruntime(seed, lead, e, groups, topk_group, top_k, group_topk,
                                        bias, dtype):
    """bias "flat": [1, E] (read flat), "longer": E + 1 elements (rejected)."""
    rng = np.random.default_rng(seed)
    logits = (2 * rng.standard_normal((*lead, e))).astype(dtype)
    b = (0.3 * rng.standard_normal(e + (bias == "longer"))).astype(np.float32)
    b = b.reshape(1, -1) if bias == "flat" else b
    attrs = {"top_k": top_k, "n_group": groups, "topk_group": topk_group,
             "group_topk": group_topk}
    tol = 1e-2 if dtype == np.float16 else 1e-5
    got = check_against_onnxruntime(OP, [logits, b], attrs, rtol=tol, atol=tol)
    fits = e % groups == 0 and topk_group <= groups and 1 <= top_k <= e
    assert (got is None) == (not fits or bias == "longer")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(0, 3), e=st.integers(1, 9),
       project=st.sampled_from([0, 256, 256, 384]), groups=st.sampled_from([1, 1, 1, 2]),
       top_k=st.integers(1, 10), dtype=st.sampled_from([np.float32, np.float16]))
def test_full_scores_match_onnxruntime(seed, rows, e, project, groups, top_k, dtype):
    """project: the activations' width (0: logits [rows, E] without projection_weight)."""
    rng = np.random.default_rng(seed)
    width = project or e
    arrays = [rng.standard_normal((rows, width)).astype(dtype),
              rng.standard_normal(e).astype(np.float32)]
    if project:
        arrays.append((0.05 * rng.standard_normal((e, width))).astype(dtype))
    attrs = {"top_k": top_k, "n_group": groups}
    sol = solve(full_graph([(dtype_of_array(a), list(a.shape)) for a in arrays], attrs))
    try:
        want = ort_full(arrays, attrs)
    except Exception:  # noqa: BLE001 - onnxruntime's errors have no common type
        assert sol.status == "error"
        assert groups > 1 or top_k > e or project == 384
        return
    got = load_kernel(OP)(attrs, n_outputs=3, domain=MS)(*arrays)
    assert got[0] is None
    for k, (g, w) in enumerate(zip(got[1:], want)):
        assert g.shape == w.shape == (rows, e) and g.dtype == w.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for y in ("y1", "y2"):
        assert sol.shape(y) == f"[{rows}, {e}]" and sol.dtype(y) == "f32"
