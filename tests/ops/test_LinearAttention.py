"""LinearAttention: rules/LinearAttention.lp on data cases, and against onnx's reference on
random head counts, head sizes, update rules, gates and states (the kernel's values:
tests/kernels/test_decoding.py)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

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
