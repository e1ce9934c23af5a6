"""HyperConnectionPostMix (com.microsoft): rules/HyperConnectionPostMix.lp (with
HyperConnectionPreMix.lp's streams and gates) on data cases, and the rules and the kernel
against onnxruntime, with and without stream_mix."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

FLAT = {"num_branches": 4}

CASES = {
    "grouped: block_output's shape": ({"inputs": ["[b, s, c, h]", "B", "[b, s, c]"]},
                                      {"y0": "[b, s, c, h]", "x1": "[b, s, h]"}),
    "grouped, a stream mix": ({"inputs": ["[b, c, h]", "B", "[b, c, 1]", "M"]},
                              {"y0": "[b, c, h]", "x1": "[b, h]", "x3": "[b, c, c]"}),
    "grouped, (C, H)": ({"inputs": ["[n, 4, 8]", "[n, 8]", "[n, 4, 8]"]}, {"y0": "[n, 4, 8]"}),
    "the streams from block_output and the gate": (
        {"inputs": ["X", "[n, 8]", "[n, 4, 8]"],
         "outputs": {"y0": {"shape": "[n, _, _]"}}},
        {"x0": "[n, 4, 8]", "y0": "[n, 4, 8]"}),
    "flattened": ({"inputs": ["[b, w]", "B", "[b, 4]", "M"], "attrs": FLAT},
                  {"y0": "[b, w]", "x1": "[b, w//4]", "x3": "[b, 4, 4]"}),
    "flattened, the width from block_output": (
        {"inputs": ["[b, _]", "[b, 8]", "[b, 4, 1]"], "attrs": FLAT}, {"y0": "[b, 32]"}),
    "f16 streams, f32 gates": (
        {"inputs": [("f16", "[n, 3, 4]"), ("f16", "[n, 4]"), "[n, 3]", "[n, 3, 3]"]},
        {"y0": "[n, 3, 4]", "dtypes": {"y0": "f16"}}),
    "a flattened gate (C * H)": ({"inputs": ["[n, 32]", "[n, 8]", "[n, 32]"], "attrs": FLAT},
                                 "error"),
    "block_output of another width": ({"inputs": ["[n, 3, 4]", "[n, 5]", "[n, 3]"]}, "error"),
    "block_output broadcast": ({"inputs": ["[2, 3, 4]", "[1, 4]", "[2, 3]"]}, "error"),
    "block_output without the leading axes": ({"inputs": ["[n, 3, 4]", "[4]", "[n, 3]"]},
                                              "error"),
    "stream_mix (C, H)": ({"inputs": ["[n, 3, 4]", "[n, 4]", "[n, 3]", "[n, 3, 4]"]},
                          "error"),
    "stream_mix without the leading axes": (
        {"inputs": ["[n, 3, 4]", "[n, 4]", "[n, 3]", "[3, 3]"]}, "error"),
    "stream_mix of another type than post_mix": (
        {"inputs": ["[n, 3, 4]", "[n, 4]", "[n, 3]", ("f16", "[n, 3, 3]")]}, "error"),
    "block_output of another type than the streams": (
        {"inputs": [("f16", "[n, 3, 4]"), "[n, 4]", "[n, 3]"]}, "error"),
    "no post_mix": ({"inputs": ["[n, 3, 4]", "[n, 4]", None, "[n, 3, 3]"]}, "error"),
    "no branch": ({"inputs": ["[n, 0, 4]", "[n, 4]", "[n, 0]"]}, "error"),
    "a width no multiple of num_branches": (
        {"inputs": ["[n, 30]", "[n, 7]", "[n, 4]"], "attrs": FLAT}, "error"),
    "grouped streams of rank 1": ({"inputs": ["[4]", "[4]", "[1]"]}, "error"),
}

test_case = case_test("HyperConnectionPostMix", CASES, domain=MS)

# post_mix's suffix: (C), (C, 1), (C, H), and (C * H) and (C, H + 1), which are none
LAYOUTS = ["c", "c1", "ch", "flat", "c,h+1"]


def gate_suffix(layout, c, h):
    return {"c": (c,), "c1": (c, 1), "ch": (c, h), "flat": (c * h,), "c,h+1": (c, h + 1)}[
        layout]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), max_size=2),
       c=st.integers(0, 3), h=st.integers(0, 4), flat=st.booleans(),
       layout=st.sampled_from(LAYOUTS), mix=st.sampled_from(["none", "ok", "ok", "bad"]),
       bad_block=st.sampled_from([False, False, False, True]),
       dtype=st.sampled_from([np.float32, np.float16]),
       gtype=st.sampled_from([np.float32, np.float16]))
def test_matches_onnxruntime(seed, lead, c, h, flat, layout, mix, bad_block, dtype, gtype):
    """mix "bad": stream_mix [..., C, C + 1]; bad_block: block_output [..., H + 1]."""
    rng = np.random.default_rng(seed)
    shape = (*lead, c * h) if flat else (*lead, c, h)
    arrays = [rng.standard_normal(shape).astype(dtype),
              rng.standard_normal((*lead, h + bad_block)).astype(dtype),
              rng.standard_normal((*lead, *gate_suffix(layout, c, h))).astype(gtype)]
    if mix != "none":
        arrays.append(rng.standard_normal((*lead, c, c + (mix == "bad"))).astype(gtype))
    attrs = {"num_branches": c} if flat else {}
    tol = 1e-2 if np.float16 in (dtype, gtype) else 1e-5
    got = check_against_onnxruntime("HyperConnectionPostMix", arrays, attrs, rtol=tol,
                                    atol=tol)
    fits = layout in ("c", "c1", "ch") or (layout == "flat" and h == 1)
    assert (got is None) == (c == 0 or h == 0 or not fits or mix == "bad" or bad_block)


def test_a_block_between_its_pre_mix_and_post_mix():
    """The two operators' nodes in one graph (the shared hconn/4 rules keep them apart):
    flattened streams [b, s, 4 * h] reduced, then mixed back."""
    from shape_logic import solve

    f32 = {"dtype": "f32"}
    g = {"opset": 21,
         "inputs": {"x": {**f32, "shape": "[b, s, w]"}, "pre": {**f32, "shape": "[b, s, 4]"},
                    "post": {**f32, "shape": "[b, s, 4, 1]"}, "mix": {**f32, "shape": "M"}},
         "nodes": [{"name": "pre", "op": "HyperConnectionPreMix", "domain": MS,
                    "inputs": ["x", "pre"], "outputs": ["h"], "attrs": FLAT},
                   {"name": "block", "op": "Relu", "inputs": ["h"], "outputs": ["o"]},
                   {"name": "post", "op": "HyperConnectionPostMix", "domain": MS,
                    "inputs": ["x", "o", "post", "mix"], "outputs": ["y"], "attrs": FLAT}]}
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert (sol.shape("h"), sol.shape("y"), sol.shape("mix")) == (
        "[b, s, w//4]", "[b, s, w]", "[b, s, 4, 4]")
