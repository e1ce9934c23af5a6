"""VarlenCausalConvWithState (com.microsoft): rules/VarlenCausalConvWithState.lp on data
cases, and the rules and the kernel against onnxruntime (packed sequences, dilation, the
state-update capture, activations)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OP = "VarlenCausalConvWithState"
CAP = {"state_update_capacity": 4}
# int32 offsets [B + 1] and capture counts [B]
CU3, CUN, Q = ("i32", "[3]"), ("i32", "[n]"), ("i32", "Q")

CASES = {
    "symbolic: the states from the kernel and the offsets": (
        {"inputs": ["[t, c]", "[c, 1, k]", CUN, None, "S"], "n_outputs": 2},
        {"y0": "[t, c]", "x4": "[n - 1, c, k - 1]", "y1": "[n - 1, c, k - 1]"}),
    "dilation 3": ({"inputs": ["[t, c]", "[c, 1, 4]", CUN, "B", "S"], "n_outputs": 2,
                    "attrs": {"dilation": 3, "activation": "silu"}},
                   {"x3": "[c]", "y1": "[n - 1, c, 9]"}),
    "symbolic kernel, dilation 2": ({"inputs": ["[t, c]", "[c, 1, k]", CUN, None, "S"],
                                     "n_outputs": 2, "attrs": {"dilation": 2}},
                                    {"y1": "[n - 1, c, 2*k - 2]"}),
    "the state update": ({"inputs": ["[t, c]", "W", ("i32", "[5]"), None, "S", Q], "n_outputs": 3,
                          "attrs": CAP},
                         {"x5": "[4]", "y2": "[4, 4, c]", "x1": "[c, 1, _1]"}),
    "a third output without a capacity is empty": (
        {"inputs": ["[t, 2]", "[2, 1, 3]", CU3, None, "S"], "n_outputs": 3},
        {"y2": "[2, 0, 2]", "y1": "[2, 2, 2]"}),
    "the offsets and the kernel from the state": (
        {"inputs": ["[t, c]", "[c, 1, k]", ("i32", "Cu"), None, "[b, c, 5]"], "n_outputs": 2},
        {"x2": "[b + 1]", "x1": "[c, 1, 6]", "dtypes": {"x2": "i32"}}),
    "bfloat16": ({"inputs": [("bf16", "[t, c]"), ("bf16", "W"), CUN, None,
                             ("bf16", "S")], "n_outputs": 3},
                 {"y2": "[n - 1, 0, c]", "dtypes": {"y0": "bf16", "y1": "bf16", "y2": "bf16"}}),
    "the dynamic mode's operands": (
        {"inputs": ["[t, c]", "[c, 1, 2]", CUN, None, "S", None, "D", "M"], "n_outputs": 2},
        {"x6": "[t, _1, _2]", "x7": "[t, 1]"}),
    # errors
    "no initial_state": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3], "n_outputs": 2}, "error"),
    "a state of another length": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None,
                                              "[2, 4, 3]"], "n_outputs": 2}, "error"),
    "a state of another batch": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None,
                                             "[3, 4, 2]"], "n_outputs": 2}, "error"),
    "the weight's channels differ": ({"inputs": ["[t, 4]", "[3, 1, 3]", CU3, None, "S"],
                                      "n_outputs": 2}, "error"),
    "the weight's middle axis is not 1": ({"inputs": ["[t, 4]", "[4, 2, 3]", CU3, None,
                                                      "S"], "n_outputs": 2}, "error"),
    "a bias of another length": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, "[5]", "S"],
                                  "n_outputs": 2}, "error"),
    "a 3-D input": ({"inputs": ["[1, t, 4]", "[4, 1, 3]", CU3, None, "S"], "n_outputs": 2},
                    "error"),
    "int64 offsets": ({"inputs": ["[t, 4]", "[4, 1, 3]", ("i64", "[3]"), None, "S"],
                       "n_outputs": 2}, "error"),
    "offsets of one entry": ({"inputs": ["[t, 4]", "[4, 1, 3]", ("i32", "[1]"), None, "S"],
                              "n_outputs": 2}, "error"),
    "fewer tokens than sequences": ({"inputs": ["[2, 4]", "[4, 1, 3]", ("i32", "[4]"), None, "S"],
                                     "n_outputs": 2}, "error"),
    "no channel": ({"inputs": ["[t, 0]", "W", CU3, None, "S"], "n_outputs": 2}, "error"),
    "a kernel of no taps": ({"inputs": ["[t, 4]", "[4, 1, 0]", CU3, None, "S"],
                             "n_outputs": 2}, "error"),
    "dilation 0": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, "S"], "n_outputs": 2,
                    "attrs": {"dilation": 0}}, "error"),
    "an unknown activation": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, "S"],
                               "n_outputs": 2, "attrs": {"activation": "relu"}}, "error"),
    "a capacity of 9": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, "S", Q],
                         "n_outputs": 3, "attrs": {"state_update_capacity": 9}}, "error"),
    "a capacity without capture_count": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, "S"],
                                          "n_outputs": 3, "attrs": CAP}, "error"),
    "capture_count without a capacity": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, "S",
                                                     Q], "n_outputs": 2}, "error"),
    "capture_count of another batch": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, "S",
                                                   CU3], "n_outputs": 3, "attrs": CAP},
                                       "error"),
    "kernel_delta without previous_mask": (
        {"inputs": ["[t, 4]", "[4, 1, 2]", CU3, None, "S", None, "D"], "n_outputs": 2},
        "error"),
    "a previous_mask of two columns": (
        {"inputs": ["[t, 4]", "[4, 1, 2]", CU3, None, "S", None, "D", "[t, 2]"],
         "n_outputs": 2}, "error"),
    "a float16 state": ({"inputs": ["[t, 4]", "[4, 1, 3]", CU3, None, ("f16", "S")],
                         "n_outputs": 2}, "error"),
    "float64": ({"inputs": [("f64", "[t, 4]"), "W", CU3, None, "S"], "n_outputs": 2},
                "error"),
}


test_case = case_test(OP, CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lengths=st.lists(st.integers(0, 4), min_size=1,
                                                        max_size=3),
       c=st.integers(1, 3), k=st.integers(1, 4), dil=st.sampled_from([None, 1, 2]),
       bias=st.booleans(), cap=st.sampled_from([0, 0, 3, 8]),
       act=st.sampled_from([None, "none", "silu", "swish"]),
       off=st.sampled_from([0, 0, 0, 1]), const=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float32, np.float16]))
def test_matches_onnxruntime(seed, lengths, c, k, dil, bias, cap, act, off, const, dtype):
    """off: a state one sample too long (rejected); const: the offsets as a constant."""
    rng = np.random.default_rng(seed)
    b, total = len(lengths), sum(lengths)
    carry = (k - 1) * (dil or 1)
    arrays = [rng.standard_normal((total, c)).astype(dtype),
              rng.standard_normal((c, 1, k)).astype(dtype),
              np.cumsum([0, *lengths]).astype(np.int32),
              rng.standard_normal(c).astype(dtype) if bias else None,
              rng.standard_normal((b, c, carry + off)).astype(dtype)]
    if cap:
        arrays.append(rng.integers(-1, 6, b).astype(np.int32))
    attrs = {key: v for key, v in (("dilation", dil), ("activation", act),
                                   ("state_update_capacity", cap)) if v}
    tol = 1e-2 if dtype == np.float16 else 1e-5
    got = check_against_onnxruntime(OP, arrays, attrs, 3 if cap else 2, rtol=tol, atol=tol,
                                    const=(2,) if const else ())
    assert (got is None) == (off == 1 or total < b)
