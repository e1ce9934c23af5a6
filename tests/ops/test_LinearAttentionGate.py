"""LinearAttentionGate (com.microsoft): rules/LinearAttentionGate.lp on data cases, and the
rules and the kernel against onnxruntime (with and without beta)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "decay and beta": ({"inputs": ["[b, t, h]", "DT", "S", "B"], "n_outputs": 2},
                       {"y0": "[b, t, h]", "y1": "[b, t, h]", "x3": "[b, t, h]"}),
    "the heads from the vectors": ({"inputs": ["[n, _]", "[8]", "S"]},
                                   {"y0": "[n, 8]"}),
    "decay only: b unread": ({"inputs": ["[n, 8]", "[8]", "[8]", "[3]"]}, {"y0": "[n, 8]"}),
    "a 2-D dt_bias is read flat": ({"inputs": ["[n, 4]", "[2, 2]", "[4]"]}, {"y0": "[n, 4]"}),
    "f16": ({"inputs": [("f16", "[t, 4]"), "[4]", "[4]", ("f16", "B")], "n_outputs": 2},
            {"y0": "[t, 4]", "y1": "[t, 4]", "dtypes": {"y0": "f16", "y1": "f16"}}),
    "backward from the output": ({"inputs": ["A", "DT", "S"],
                                  "outputs": {"y0": {"shape": "[2, h]"}}},
                                 {"x0": "[2, h]", "x1": "DT"}),
    "beta without b": ({"inputs": ["[n, 4]", "[4]", "[4]"], "n_outputs": 2}, "error"),
    "b of another shape": ({"inputs": ["[2, 4]", "[4]", "[4]", "[3, 4]"], "n_outputs": 2},
                           "error"),
    "dt_bias of another length": ({"inputs": ["[n, 4]", "[3]", "[4]"]}, "error"),
    "decay_scale of another length": ({"inputs": ["[n, 4]", "[4]", "[1]"]}, "error"),
    "no heads": ({"inputs": ["[n, 0]", "[0]", "[0]"]}, "error"),
    "a scalar a": ({"inputs": ["[]", "[1]", "[1]"]}, "error"),
    "f16 vectors": ({"inputs": ["[n, 4]", ("f16", "[4]"), "[4]"]}, "error"),
    "b of another type": ({"inputs": ["[n, 4]", "[4]", "[4]", ("f16", "[n, 4]")]}, "error"),
    "double": ({"inputs": [("f64", "[n, 4]"), "[4]", "[4]"]}, "error"),
}


test_case = case_test("LinearAttentionGate", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), max_size=2),
       h=st.integers(0, 5), dh=st.sampled_from([0, 0, 0, 1]), beta=st.booleans(),
       with_b=st.sampled_from([True, True, False]), vec2=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float16]))
def test_matches_onnxruntime(seed, lead, h, dh, beta, with_b, vec2, dtype):
    """dh: dt_bias one element longer than a's last axis (rejected); vec2: dt_bias [1, H]."""
    rng = np.random.default_rng(seed)
    shape = (*lead, h)
    a = (3 * rng.standard_normal(shape)).astype(dtype)
    dt = rng.standard_normal(h + dh).astype(np.float32)
    dt = dt.reshape(1, -1) if vec2 else dt
    ds = -np.exp(rng.standard_normal(h)).astype(np.float32)
    arrays = [a, dt, ds] + ([rng.standard_normal(shape).astype(dtype)] if with_b else [])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    got = check_against_onnxruntime("LinearAttentionGate", arrays, {}, 1 + beta,
                                    rtol=tol, atol=tol)
    assert (got is None) == bool(h == 0 or dh or (beta and not with_b))
