"""GatedRMSNorm (com.microsoft): rules/GatedRMSNorm.lp on data cases, and the rules and the
kernel against onnxruntime (per-head groups, both activations)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "symbolic shape": ({"inputs": ["[b, t, e]", "[c]", "G"]},
                       {"y0": "[b, t, e]", "x2": "[b, t, e]"}),
    "per-head groups": ({"inputs": ["[b, t, 64]", "[16]", "[b, t, 64]"]}, {"y0": "[b, t, 64]"}),
    "a 2-D scale is read flat": ({"inputs": ["[b, 8]", "[2, 4]", "[b, 8]"]}, {"y0": "[b, 8]"}),
    "a scalar scale": ({"inputs": ["[b, 8]", "[]", "[b, 8]"]}, {"y0": "[b, 8]"}),
    "sigmoid, bf16": ({"inputs": [("bf16", "[n, 4]"), ("bf16", "[4]"), ("bf16", "G")],
                       "attrs": {"activation": "sigmoid"}},
                      {"y0": "[n, 4]", "dtypes": {"y0": "bf16"}}),
    "backward from the output": ({"inputs": ["X", "[4]", "G"],
                                  "outputs": {"y0": {"shape": "[2, n]"}}},
                                 {"x0": "[2, n]", "x2": "[2, n]"}),
    "a last axis no multiple of the scale": ({"inputs": ["[b, 8]", "[3]", "[b, 8]"]}, "error"),
    "an empty scale": ({"inputs": ["[b, 0]", "[0]", "[b, 0]"]}, "error"),
    "a gate of another shape": ({"inputs": ["[2, 8]", "[8]", "[1, 8]"]}, "error"),
    "a scalar X": ({"inputs": ["[]", "[1]", "[]"]}, "error"),
    "an unknown activation": ({"inputs": ["[b, 8]", "[8]", "[b, 8]"],
                               "attrs": {"activation": "relu"}}, "error"),
    "two float types": ({"inputs": ["[b, 8]", ("f16", "[8]"), "[b, 8]"]}, "error"),
    "double": ({"inputs": [("f64", "[b, 8]"), ("f64", "[8]"), ("f64", "[b, 8]")]}, "error"),
}


test_case = case_test("GatedRMSNorm", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), max_size=2),
       groups=st.integers(1, 3), c=st.integers(1, 6), off=st.sampled_from([0, 0, 0, 1]),
       act=st.sampled_from([None, "silu", "swish", "sigmoid"]),
       eps=st.sampled_from([None, 1e-6, 0.5]), dtype=st.sampled_from([np.float32, np.float16]))
def test_matches_onnxruntime(seed, lead, groups, c, off, act, eps, dtype):
    """off: X's last axis one more than a multiple of C (rejected unless C is 1)."""
    rng = np.random.default_rng(seed)
    shape = (*lead, groups * c + off)
    x, g = (rng.standard_normal(shape).astype(dtype) for _ in range(2))
    scale = rng.standard_normal(c).astype(dtype)
    attrs = {k: v for k, v in (("activation", act), ("epsilon", eps)) if v is not None}
    tol = 1e-2 if dtype == np.float16 else 1e-5
    got = check_against_onnxruntime("GatedRMSNorm", [x, scale, g], attrs, rtol=tol, atol=tol)
    assert (got is None) == (off and c > 1)
