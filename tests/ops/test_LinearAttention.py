"""LinearAttention: rules/LinearAttention.lp on data cases, and against onnx's reference on
random head counts, head sizes, update rules, gates and states (the kernel's values:
tests/kernels/test_decoding.py); com.microsoft's on its own cases and against onnxruntime's
CPU kernel (inverse grouping, fewer key heads, unread gates)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OPSET = 27
HEADS = {"q_num_heads": 8, "kv_num_heads": 2}
QKV = ["[b, t, 512]", "[b, t, 128]", "[b, t, 256]"]  # dk 64, dv 128
GATES = ["[b, t, 2]", "[b, t, 2]"]  # decay and beta per head

CASES = {
    "gated delta, per-head gates: dk and dv from query and value": (
        {"inputs": QKV + [None] + GATES},
        {"y0": "[b, t, 1024]", "y1": "[b, 2, 64, 128]"}),
    "the key and the past state from the query and value": (
        {"inputs": ["[b, t, 512]", "K", "[b, t, 256]", "P", "[b, t, 128]", "[b, t, 1]"]},
        {"x1": "[b, t, 128]", "x3": "[b, 2, 64, 128]"}),
    "symbolic widths": ({"inputs": ["[b, t, q]", "[b, t, k]", "[b, t, v]", None] + GATES},
                        {"y0": "[b, t, 8*(v//2)]", "y1": "[b, 2, q//8, v//2]"}),
    "a decay per key dimension binds the key's width": (
        {"inputs": ["[b, t, q]", "[b, t, k]", "[b, t, v]", None, "[b, t, 128]", "[b, t, 2]"]},
        {"x1": "[b, t, 128]", "bindings": {"k": 128}}),
    "the linear rule takes no gates": ({"inputs": QKV, "attrs": {"update_rule": "linear"}},
                                       {"y1": "[b, 2, 64, 128]"}),
    "the gated rule takes decay": ({"inputs": QKV + [None, "[b, t, 128]"],
                                    "attrs": {"update_rule": "gated"}}, {"y0": "[b, t, 1024]"}),
    "the delta rule takes beta": ({"inputs": QKV + [None, None, "[b, t, 1]"],
                                   "attrs": {"update_rule": "delta"}}, {"y0": "[b, t, 1024]"}),
    "multi-query (one kv head)": (
        {"inputs": ["[b, t, 64]", "[b, t, 16]", "[b, t, 8]", None, "[b, t, 1]", "[b, t, 1]"],
         "attrs": {"q_num_heads": 4, "kv_num_heads": 1}},
        {"y0": "[b, t, 32]", "y1": "[b, 1, 16, 8]"}),
    "float16 activations, a float32 state": (
        {"inputs": [("f16", s) for s in QKV] + [("f32", "P")] + [("f16", s) for s in GATES]},
        {"dtypes": {"y0": "f16", "y1": "f32"}}),
    "no past state: the present has the query's type": (
        {"inputs": [("bf16", s) for s in QKV] + [None] + [("bf16", s) for s in GATES]},
        {"dtypes": {"y1": "bf16"}}),
    "backward: the batch and head sizes from the present state": (
        {"inputs": ["[b, t, 512]", "[c, t, 128]", "[b, t, v]", None] + GATES,
         "outputs": {"y1": {"shape": "[4, 2, 64, 32]"}}},
        {"x1": "[4, t, 128]", "bindings": {"b": 4, "c": 4}}),
    # errors
    "query heads not groups of the kv heads": (
        {"inputs": QKV + [None] + GATES, "attrs": {"q_num_heads": 8, "kv_num_heads": 3}},
        "error"),
    "no q_num_heads": ({"inputs": QKV + [None] + GATES, "attrs": {"kv_num_heads": 2}},
                       "error"),
    "no kv_num_heads": ({"inputs": QKV + [None] + GATES, "attrs": {"q_num_heads": 8}},
                        "error"),
    "zero kv heads": ({"inputs": QKV + [None] + GATES,
                       "attrs": {"q_num_heads": 8, "kv_num_heads": 0}}, "error"),
    "the query's width not a whole number of heads": (
        {"inputs": ["[b, t, 500]", "K", "[b, t, 256]", None] + GATES}, "error"),
    "the value's width not a whole number of heads": (
        {"inputs": ["[b, t, 512]", "K", "[b, t, 255]", None] + GATES}, "error"),
    "the key's width differs": ({"inputs": ["[b, t, 512]", "[b, t, 100]", "[b, t, 256]", None]
                                 + GATES}, "error"),
    "the key's length differs": ({"inputs": ["[b, 2, 512]", "[b, 3, 128]", "[b, t, 256]",
                                             None] + GATES}, "error"),
    "a past state of another head size": ({"inputs": QKV + ["[b, 2, 64, 64]"] + GATES},
                                          "error"),
    "a decay neither per head nor per key dimension": (
        {"inputs": QKV + [None, "[b, t, 5]", "[b, t, 2]"]}, "error"),
    "a beta neither per head nor one": ({"inputs": QKV + [None, "[b, t, 2]", "[b, t, 3]"]},
                                        "error"),
    "gated delta without decay": ({"inputs": QKV + [None, None, "[b, t, 2]"]}, "error"),
    "gated delta without beta": ({"inputs": QKV + [None, "[b, t, 2]"]}, "error"),
    "the linear rule given a decay": ({"inputs": QKV + [None, "[b, t, 2]"],
                                       "attrs": {"update_rule": "linear"}}, "error"),
    "the gated rule given a beta": ({"inputs": QKV + [None, "[b, t, 2]", "[b, t, 2]"],
                                     "attrs": {"update_rule": "gated"}}, "error"),
    "an unknown update rule": ({"inputs": QKV, "attrs": {"update_rule": "mamba"}}, "error"),
    "a 4-D query": ({"inputs": ["[b, t, 8, 64]", "[b, t, 128]", "[b, t, 256]", None] + GATES},
                    "error"),
    "float64": ({"inputs": [("f64", s) for s in QKV] + [None] + [("f64", s) for s in GATES]},
                "error"),
    "no present_state": ({"inputs": QKV + [None] + GATES, "n_outputs": 1}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, want = CASES[name]
    attrs = spec.get("attrs", {})
    if not set(attrs) & set(HEADS):  # (a case that names a head count gives both or one)
        attrs = {**HEADS, **attrs}
    check_case("LinearAttention", {"opset": OPSET, "n_outputs": 2, **spec, "attrs": attrs},
               want)


RULES = ["linear", "gated", "delta", "gated_delta"]


@st.composite
def attention_cases(draw):
    """Valid inputs of every update rule, gate layout and state type, and now and then one
    that onnx's reference rejects: a gate the rule does not take or lacks, a beta of
    another width, head counts that do not group."""
    b, t, groups = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    heads = groups * draw(st.integers(1, 3))
    dk, dv = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    rule = draw(st.sampled_from(RULES))
    gated, delta = "gated" in rule, "delta" in rule
    dtype = draw(st.sampled_from(["f32", "f32", "f16"]))
    state_dtype = draw(st.sampled_from([dtype, "f32"]))
    flaw = draw(st.sampled_from([None] * 6 + ["decay", "beta", "beta width", "heads"]))
    if flaw == "decay":
        gated = not gated
    if flaw == "beta":
        delta = not delta
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    f = lambda shape, d=dtype: random_array(shape, d, rng) * 0.5  # noqa: E731
    arrays = [f([b, t, heads * dk]), f([b, t, groups * dk]), f([b, t, groups * dv]),
              f([b, groups, dk, dv], state_dtype) if draw(st.booleans()) else None,
              -abs(f([b, t, draw(st.sampled_from([groups, groups * dk]))])) if gated else None,
              None]
    if delta:
        width = 4 if flaw == "beta width" else draw(st.sampled_from([groups, 1]))
        arrays[5] = 1 / (1 + np.exp(-f([b, t, width])))
    attrs = {"q_num_heads": heads + (1 if flaw == "heads" and groups > 1 else 0),
             "kv_num_heads": groups}
    if rule != "gated_delta" or draw(st.booleans()):
        attrs["update_rule"] = rule
    if draw(st.booleans()):
        attrs["scale"] = draw(st.floats(0.1, 2.0))
    return arrays, attrs


@settings(max_examples=30, deadline=None)
@given(attention_cases())
def test_matches_reference(case):
    arrays, attrs = case
    check_against_reference("LinearAttention", arrays, attrs, n_outputs=2, opset=OPSET)


# com.microsoft's (onnxruntime's): every case names both head counts
MSH = {"q_num_heads": 8, "kv_num_heads": 2}
MS_CASES = {
    "per-head gates: dk and dv from query and value": (
        {"inputs": QKV + [None] + GATES, "attrs": MSH, "n_outputs": 2},
        {"y0": "[b, t, 1024]", "y1": "[b, 2, 64, 128]"}),
    "inverse grouping: the output has the kv heads": (
        {"inputs": ["[b, t, 64]", "[b, t, 64]", "[b, t, 96]", None, "[b, t, 4]", "[b, t, 1]"],
         "attrs": {"q_num_heads": 1, "kv_num_heads": 4}, "n_outputs": 2},
        {"y0": "[b, t, 96]", "y1": "[b, 4, 64, 24]"}),
    "the key's width is free (its heads divide G)": (
        {"inputs": ["[b, t, 512]", "K", "[b, t, 256]", None] + GATES, "attrs": MSH,
         "n_outputs": 2}, {"x1": "[b, t, _1]"}),
    "one key head": ({"inputs": ["[b, t, 512]", "[b, t, 64]", "[b, t, 256]", None] + GATES,
                      "attrs": MSH, "n_outputs": 2}, {"y0": "[b, t, 1024]"}),
    "a decay per key dimension is G*dk": (
        {"inputs": ["[b, t, 512]", "[b, t, 64]", "[b, t, 256]", None, "[b, t, w]",
                    "[b, t, 2]"], "attrs": MSH, "n_outputs": 2}, {"x4": "[b, t, w]"}),
    "the linear rule with unread gates": (
        {"inputs": QKV + [None] + GATES, "attrs": {**MSH, "update_rule": "linear"},
         "n_outputs": 2}, {"y0": "[b, t, 1024]"}),
    "state_window 3: the states have a window axis": (
        {"inputs": QKV + ["P"] + GATES, "attrs": {**MSH, "state_window": 3},
         "n_outputs": 2}, {"x3": "[3, b, 2, 64, 128]", "y1": "[3, b, 2, 64, 128]"}),
    "float16 activations, a float32 state": (
        {"inputs": [("f16", s) for s in QKV] + [("f32", "P")] + [("f16", s) for s in GATES],
         "attrs": MSH, "n_outputs": 2}, {"dtypes": {"y0": "f16", "y1": "f32"}}),
    # errors
    "heads that group neither way": (
        {"inputs": QKV + [None] + GATES, "attrs": {"q_num_heads": 2, "kv_num_heads": 3},
         "n_outputs": 2}, "error"),
    "key heads that do not divide G": (
        {"inputs": ["[b, t, 512]", "[b, t, 192]", "[b, t, 256]", None] + GATES, "attrs": MSH,
         "n_outputs": 2}, "error"),
    "a key of no whole head": (
        {"inputs": ["[b, t, 512]", "[b, t, 100]", "[b, t, 256]", None] + GATES, "attrs": MSH,
         "n_outputs": 2}, "error"),
    "an empty value head": (
        {"inputs": ["[b, t, 512]", "K", "[b, t, 0]", None] + GATES, "attrs": MSH,
         "n_outputs": 2}, "error"),
    "a decay of neither width": (
        {"inputs": QKV + [None, "[b, t, 5]", "[b, t, 2]"], "attrs": MSH, "n_outputs": 2},
        "error"),
    "an unread beta of a wrong width": (
        {"inputs": QKV + [None, "[b, t, 2]", "[b, t, 3]"],
         "attrs": {**MSH, "update_rule": "gated"}, "n_outputs": 2}, "error"),
    "gated without decay": ({"inputs": QKV, "attrs": {**MSH, "update_rule": "gated"},
                             "n_outputs": 2}, "error"),
    "state_window 9": ({"inputs": QKV + [None] + GATES, "attrs": {**MSH, "state_window": 9},
                        "n_outputs": 2}, "error"),
    "a 4-D past state under a window": (
        {"inputs": QKV + ["[b, 2, 64, 128]"] + GATES, "attrs": {**MSH, "state_window": 2},
         "n_outputs": 2}, "error"),
}

test_ms_case = case_test("LinearAttention", MS_CASES, domain=MS)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(0, 2), t=st.integers(0, 4),
       grouping=st.sampled_from([(2, 2, 2), (4, 2, 2), (4, 2, 1), (1, 4, 2), (2, 4, 4),
                                 (3, 2, 2), (2, 2, 4)]),
       dk=st.integers(1, 3), dv=st.integers(1, 3), rule=st.sampled_from(RULES + [None]),
       decay=st.sampled_from(["head", "key", "head", None, "bad"]),
       beta=st.sampled_from(["head", "one", "head", None]), past=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float32, np.float16]), scale=st.booleans())
def test_ms_matches_onnxruntime(seed, b, t, grouping, dk, dv, rule, decay, beta, past,
                                dtype, scale):
    """grouping: query, kv and key heads ((3, 2, 2): no grouping; (2, 2, 4): too many key
    heads); decay "bad": of a width neither G nor G*dk."""
    (heads, groups, key_heads), rng = grouping, np.random.default_rng(seed)
    f = lambda *shape: (0.5 * rng.standard_normal(shape)).astype(dtype)  # noqa: E731
    key = f(b, t, key_heads * dk)
    key /= np.maximum(np.linalg.norm(key.reshape(b, t, key_heads, dk), axis=-1), 0.1).repeat(
        dk, axis=-1).astype(dtype)
    widths = {"head": groups, "key": groups * dk, "one": 1, "bad": groups * dk + 1}
    arrays = [f(b, t, heads * dk), key, f(b, t, groups * dv),
              f(b, groups, dk, dv).astype(np.float32) if past else None,
              -abs(f(b, t, widths[decay])) if decay else None,
              (1 / (1 + np.exp(-f(b, t, widths[beta])))).astype(dtype) if beta else None]
    attrs = {"q_num_heads": heads, "kv_num_heads": groups, **(
        {"update_rule": rule} if rule else {}), **({"scale": 0.7} if scale else {})}
    tol = 1e-2 if dtype == np.float16 else 1e-4
    got = check_against_onnxruntime("LinearAttention", arrays, attrs, 2, rtol=tol, atol=tol)
    rule = rule or "gated_delta"
    assert (got is None) == bool(
        grouping in ((3, 2, 2), (2, 2, 4)) or decay == "bad" and dk > 0
        or "gated" in rule and not decay or "delta" in rule and not beta)
