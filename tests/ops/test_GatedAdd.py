"""GatedAdd (com.microsoft): rules/GatedAdd.lp on data cases, and the rules and the kernel
against onnxruntime (plain mode: its CPU kernel has no gate_weight mode)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "symbolic shape": ({"inputs": ["[b, t, c]", "Y", "G"]},
                       {"y0": "[b, t, c]", "x1": "[b, t, c]", "x2": "[b, t, 1]"}),
    "a vector": ({"inputs": ["[c]", "[c]", "[1]"]}, {"y0": "[c]"}),
    "f16": ({"inputs": [("f16", "[b, 4]"), ("f16", "[b, 4]"), ("f16", "[b, 1]")]},
            {"y0": "[b, 4]", "dtypes": {"y0": "f16"}}),
    "gate_weight: (K, 1)": ({"inputs": [("bf16", "[b, t, c]"), ("bf16", "Y"),
                                        ("bf16", "[p, 5, k]"), ("bf16", "W")]},
                            {"x2": "[b, 5, k]", "x3": "[k, 1]", "y0": "[b, 5, c]"}),
    "backward from the output": ({"inputs": ["X", "Y", "G"],
                                  "outputs": {"y0": {"shape": "[2, n]"}}},
                                 {"x0": "[2, n]", "x1": "[2, n]", "x2": "[2, 1]"}),
    "a gate of C values per row": ({"inputs": ["[b, 4]", "[b, 4]", "[b, 4]"]}, "error"),
    "a gate broadcast over the rows": ({"inputs": ["[2, 3, 4]", "[2, 3, 4]", "[1, 3, 1]"]},
                                       "error"),
    "a gate of lower rank": ({"inputs": ["[2, 3, 4]", "[2, 3, 4]", "[3, 1]"]}, "error"),
    "Y broadcast": ({"inputs": ["[2, 3, 4]", "[1, 3, 4]", "[2, 3, 1]"]}, "error"),
    "a scalar X": ({"inputs": ["[]", "[]", "[]"]}, "error"),
    "rows of no element": ({"inputs": ["[2, 0]", "[2, 0]", "[2, 1]"]}, "error"),
    "a gate_weight not (K, 1)": ({"inputs": ["[b, c]", "[b, c]", "[b, 4]", "[4, 2]"]},
                                 "error"),
    "two float types": ({"inputs": ["[b, 4]", "[b, 4]", ("f16", "[b, 1]")]}, "error"),
    "double": ({"inputs": [("f64", "[4]"), ("f64", "[4]"), ("f64", "[1]")]}, "error"),
}


test_case = case_test("GatedAdd", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), max_size=3),
       c=st.integers(1, 6), dtype=st.sampled_from([np.float32, np.float16]),
       bad=st.sampled_from([None] * 4 + ["gate last", "gate lead", "y", "empty"]))
def test_matches_onnxruntime(seed, lead, c, dtype, bad):
    """bad: one thing onnxruntime rejects (a gate of c + 1 values per row, a gate whose first
    axis is 1 more, a Y of c + 1 columns, rows of no element)."""
    rng = np.random.default_rng(seed)
    if bad == "gate lead" and not lead:
        lead = [2]
    c = 0 if bad == "empty" else c
    x = rng.standard_normal((*lead, c)).astype(dtype)
    y = rng.standard_normal((*lead, c + (bad == "y"))).astype(dtype)
    glead = [lead[0] + 1, *lead[1:]] if bad == "gate lead" else lead
    gate = rng.standard_normal((*glead, 2 if bad == "gate last" else 1)).astype(dtype)
    got = check_against_onnxruntime("GatedAdd", [x, y, gate], rtol=1e-3, atol=1e-3)
    assert (got is None) == (bad is not None)


def test_float16_rounds_the_product_as_onnxruntime():
    from shape_logic.kernels import load_kernel
    from tests.contrib_ops import ort_contrib

    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal((64, 32)).astype(np.float16) * 8 for _ in range(2))
    gate = rng.standard_normal((64, 1)).astype(np.float16)
    want, = ort_contrib("GatedAdd", [x, y, gate])
    got, = load_kernel("GatedAdd")({}, domain=MS)(x, y, gate)
    assert got.dtype == np.float16 and np.array_equal(got, want)


def test_onnxruntime_cpu_has_no_gate_weight_mode():
    a = np.ones((2, 4), np.float32)
    assert check_against_onnxruntime("GatedAdd", [a, a, np.ones((2, 3), np.float32),
                                                  np.ones((3, 1), np.float32)],
                                     ort_fails_ok=True) is None
