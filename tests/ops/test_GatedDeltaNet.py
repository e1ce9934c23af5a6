"""GatedDeltaNet (com.microsoft): rules/GatedDeltaNet.lp on data cases, and the rules and the
kernel against onnxruntime (update rules, ragged and uniform packing, the rank-4 and packed
QKV spellings, fused gates, per-key decay, inverse grouping, the empty state_update)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OP = "GatedDeltaNet"
CUN, CU3 = ("i32", "[n]"), ("i32", "[3]")
QKV = ["[t, 2, 4]", "[t, 2, 4]", "[t, 4, 3]"]  # Hq 2, dk 4, Hv 4, dv 3
FUSED = {"gate_activation": "softplus"}

CASES = {
    "ragged: the states from the offsets": (
        {"inputs": QKV + [CUN, "D", "B"], "n_outputs": 2},
        {"y0": "[t, 4, 3]", "y1": "[n - 1, 4, 3, 4]", "x4": "D", "x5": "[t, 4]"}),
    "a per-key decay and the state update's width": (
        {"inputs": QKV + [CUN, "[t, 4, 4]", "B", "S", None, None, ("i32", "C")],
         "n_outputs": 3, "attrs": {"state_update_capacity": 2}},
        {"y2": "[n - 1, 72]", "x6": "[n - 1, 4, 3, 4]", "x9": "[n - 1]"}),
    "no capacity: an empty state update": ({"inputs": QKV + [CU3, "D", "B"], "n_outputs": 3},
                                           {"y2": "[2, 0]"}),
    "uniform: the batch from the state": ({"inputs": QKV + [None, "D", "B", "[2, h, v, k]"],
                                           "n_outputs": 2}, {"y1": "[2, 4, 3, 4]"}),
    "rank 4: the batch from the query": (
        {"inputs": ["[b, s, h, k]", "K", "[b, s, g, v]", None, "D", "B"], "n_outputs": 2},
        {"y0": "[b, s, g, v]", "y1": "[b, g, v, k]", "x1": "[_1, _2, h, k]"}),
    "packed QKV: the sizes from the state": (
        {"inputs": ["[t, 28]", None, None, CU3, "D", "B", "[2, 4, 3, 4]"], "n_outputs": 3},
        {"y0": "[t, 4, 3]", "x5": "[t, 4]", "y2": "[2, 0]"}),
    "fused gates": ({"inputs": QKV + [CUN, "D", "B", None, "A", "[4, 4]"], "n_outputs": 2,
                     "attrs": FUSED}, {"x7": "[4]"}),
    "the linear rule": ({"inputs": QKV + [CUN], "attrs": {"update_rule": "linear"}},
                        {"y0": "[t, 4, 3]"}),
    "float16, float32 gates": ({"inputs": [("f16", s) for s in QKV] + [CUN, "D", "B"],
                                "n_outputs": 2},
                               {"dtypes": {"y0": "f16", "y1": "f32", "x4": "f32"}}),
    # errors
    "Hv no multiple of Hq": ({"inputs": ["[t, 4, 4]", "[t, 4, 4]", "[t, 2, 3]", CUN, "D",
                                         "B"]}, "error"),
    "a key of other heads": ({"inputs": ["[t, 2, 4]", "[t, 1, 4]", "[t, 4, 3]", CUN, "D",
                                         "B"]}, "error"),
    "a key without a value": ({"inputs": ["[t, 2, 4]", "[t, 2, 4]", None, CUN, "D", "B"]},
                              "error"),
    "packed QKV without a state": ({"inputs": ["[t, 28]", None, None, CU3, "D", "B"]},
                                   "error"),
    "a packed width that does not fit": (
        {"inputs": ["[t, 29]", None, None, CU3, "D", "B", "[2, 4, 3, 4]"]}, "error"),
    "uniform without a state": ({"inputs": QKV + [None, "D", "B"]}, "error"),
    "uneven uniform tokens": ({"inputs": ["[5, 2, 4]", "K", "[5, 4, 3]", None, "D", "B",
                                          "[2, 4, 3, 4]"]}, "error"),
    "ragged rank 4": ({"inputs": ["[b, s, 2, 4]", "K", "[b, s, 4, 3]", CU3, "D", "B"]},
                      "error"),
    "no tokens": ({"inputs": ["[0, 2, 4]", "K", "V", CU3, "D", "B"]}, "error"),
    "a state of swapped sizes": ({"inputs": QKV + [CU3, "D", "B", "[2, 4, 4, 3]"]}, "error"),
    "a float16 state": ({"inputs": QKV + [CU3, "D", "B", ("f16", "S")]}, "error"),
    "float16 gates for a float32 query": ({"inputs": QKV + [CU3, ("f16", "D"), ("f16", "B")]},
                                          "error"),
    "gated without decay": ({"inputs": QKV + [CU3, None, "B"]}, "error"),
    "linear with beta": ({"inputs": QKV + [CU3, None, "B"],
                          "attrs": {"update_rule": "linear"}}, "error"),
    "fused gates without a_log": ({"inputs": QKV + [CU3, "D", "B"], "attrs": FUSED}, "error"),
    "a_log without fused gates": ({"inputs": QKV + [CU3, "D", "B", None, "A", "DT"]},
                                  "error"),
    "a beta per key": ({"inputs": QKV + [CU3, "D", "[t, 4, 4]"]}, "error"),
    "a capacity without capture_count": ({"inputs": QKV + [CU3, "D", "B"], "n_outputs": 3,
                                          "attrs": {"state_update_capacity": 2}}, "error"),
    "a capacity of 9": ({"inputs": QKV + [CU3, "D", "B"],
                         "attrs": {"state_update_capacity": 9}}, "error"),
    "an unknown gate": ({"inputs": QKV + [CU3, "D", "B"], "attrs": {"gate_activation": "relu"}},
                        "error"),
    "offsets of one entry": ({"inputs": QKV + [("i32", "[1]"), "D", "B"]}, "error"),
}

test_case = case_test(OP, CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lengths=st.lists(st.integers(0, 4), min_size=1,
                                                        max_size=3),
       spelling=st.sampled_from(["ragged", "ragged", "uniform", "rank4", "packed"]),
       heads=st.sampled_from([(1, 1), (2, 2), (1, 3), (2, 4), (2, 3)]),
       dk=st.integers(1, 3), dv=st.integers(1, 3), rule=st.sampled_from(
           ["linear", "gated", "delta", "gated_delta", None]),
       per_key=st.booleans(), gate=st.sampled_from([None, "softplus", "sigmoid", "kda"]),
       extra=st.booleans(), state=st.booleans(), outputs=st.sampled_from([1, 2, 3]),
       dtype=st.sampled_from([np.float32, np.float32, np.float16]))
def test_matches_onnxruntime(seed, lengths, spelling, heads, dk, dv, rule, per_key, gate,
                             extra, state, outputs, dtype):
    """heads (Hq, Hv) (2, 3): not grouped (rejected); extra: sigmoid beta, l2 norm, a scale
    and a gate_lower_bound."""
    rng = np.random.default_rng(seed)
    (hq, hv), b = heads, len(lengths)
    if spelling != "ragged":  # equal sequences
        lengths = [max(lengths)] * b
    t = sum(lengths)
    f = lambda *shape, d=dtype: (0.5 * rng.standard_normal(shape)).astype(d)  # noqa: E731
    lead = (b, lengths[0]) if spelling == "rank4" else (t,)
    q, k, v = f(*lead, hq, dk), f(*lead, hq, dk), f(*lead, hv, dv)
    k /= np.maximum(np.linalg.norm(k, axis=-1, keepdims=True), 0.5).astype(dtype)
    r = rule or "gated_delta"
    fused = gate is not None and "gated" in r
    gdt = np.float32 if extra else dtype
    arrays = [q, k, v, np.cumsum([0, *lengths]).astype(np.int32) if spelling == "ragged"
              else None,
              -abs(f(*lead, hv, *([dk] if per_key else []), d=gdt)) if "gated" in r else None,
              (f(*lead, hv, d=gdt) if extra else
               (1 / (1 + np.exp(-f(*lead, hv)))).astype(dtype)) if "delta" in r else None,
              f(b, hv, dv, dk, d=np.float32) if state or spelling in ("uniform", "packed")
              else None,
              f(hv, d=np.float32) if fused else None,
              f(hv, *([dk] if per_key and extra else []), d=np.float32) if fused else None]
    if spelling == "packed":
        arrays[:3] = [np.concatenate([x.reshape(t, x.shape[-2] * x.shape[-1]) for x in (q, k, v)],
                                     axis=1), None, None]
    attrs = {**({"update_rule": rule} if rule else {}),
             **({"gate_activation": gate} if fused else {}),
             **({"beta_activation": "sigmoid", "qk_l2_norm": 1, "scale": 0.8,
                 "gate_lower_bound": -2.0} if extra else {})}
    tol = 1e-2 if dtype == np.float16 else 1e-4
    got = check_against_onnxruntime(OP, arrays, attrs, outputs, rtol=tol, atol=tol)
    assert (got is None) == bool(t == 0 or hv % hq), (t, heads)
