"""EngramGate (com.microsoft): rules/EngramGate.lp on data cases, and the rules and the
kernel against onnxruntime (with and without the normed output, float32 and float16)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

SCALES = ["KS", "QS"]
CASES = {
    "the shapes from key": ({"inputs": ["[b, s, g, h]", "Q", "V", *SCALES, "CS"],
                             "n_outputs": 2},
                            {"y0": "[b, s, g, h]", "y1": "[b, s, g, h]", "x1": "[b, s, g, h]",
                             "x2": "[b, s, h]", "x3": "[g, h]", "x5": "[g, h]"}),
    "key from value and the scales": ({"inputs": ["K", "Q", "[b, s, 8]", "[4, 8]", "QS"]},
                                      {"y0": "[b, s, 4, 8]", "x0": "[b, s, 4, 8]"}),
    "f16": ({"inputs": [("f16", "[b, s, 2, 4]"), ("f16", "Q"), ("f16", "V"), ("f16", "KS"),
                        ("f16", "QS")]}, {"y0": "[b, s, 2, 4]", "dtypes": {"y0": "f16"}}),
    "conv_norm_scale without the normed output": (
        {"inputs": ["[b, s, 2, 4]", "Q", "V", *SCALES, "CS"]}, {"x5": "[2, 4]"}),
    "the normed output without conv_norm_scale": (
        {"inputs": ["[b, s, 2, 4]", "Q", "V", *SCALES], "n_outputs": 2}, "error"),
    "a 3-D key": ({"inputs": ["[b, s, 4]", "Q", "V", *SCALES]}, "error"),
    "a query of other heads": ({"inputs": ["[b, s, 2, 4]", "[b, s, 3, 4]", "V", *SCALES]},
                               "error"),
    "a value of another width": ({"inputs": ["[b, s, 2, 4]", "Q", "[b, s, 5]", *SCALES]},
                                 "error"),
    "a flat scale": ({"inputs": ["[b, s, 2, 4]", "Q", "V", "[8]", "QS"]}, "error"),
    "bf16 (no kernel)": ({"inputs": [("bf16", "[b, s, 2, 4]"), ("bf16", "Q"), ("bf16", "V"),
                                     ("bf16", "KS"), ("bf16", "QS")]}, "error"),
    "f16 scales": ({"inputs": ["[b, s, 2, 4]", "Q", "V", ("f16", "KS"), "QS"]}, "error"),
}


test_case = case_test("EngramGate", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(0, 2), s=st.integers(1, 3),
       g=st.integers(1, 3), h=st.integers(1, 5), normed=st.booleans(),
       conv=st.sampled_from([True, True, False]), bad=st.sampled_from([0, 0, 0, 1]),
       eps=st.sampled_from([None, 0.1]), dtype=st.sampled_from([np.float32, np.float16]))
def test_matches_onnxruntime(seed, b, s, g, h, normed, conv, bad, eps, dtype):
    """bad: a value one element wider than H (rejected)."""
    rng = np.random.default_rng(seed)

    def r(*shape):
        return rng.standard_normal(shape).astype(dtype)

    arrays = [r(b, s, g, h), r(b, s, g, h), r(b, s, h + bad), r(g, h), r(g, h)]
    arrays += [r(g, h)] if conv else []
    tol = 1e-2 if dtype == np.float16 else 1e-5
    got = check_against_onnxruntime("EngramGate", arrays, {"epsilon": eps} if eps else {},
                                    1 + normed, rtol=tol, atol=tol)
    assert (got is None) == bool(bad or (normed and not conv))
