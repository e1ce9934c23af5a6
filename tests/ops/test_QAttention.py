"""QAttention (com.microsoft): rules/QAttention.lp on data cases, and the rules and the kernel
against onnxruntime on random layers (per-column weights, a key mask, a past)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime


def case(inputs, attrs=None, n_outputs=1, outputs=None):
    spec = {"inputs": inputs, "attrs": {"num_heads": 4, **(attrs or {})}, "domain": MS,
            "n_outputs": n_outputs}
    return {**spec, "outputs": outputs} if outputs else spec


X, W = ("u8", "[b, s, 32]"), ("i8", "[32, 96]")
CASES = {
    "a quantized BERT layer's attention": (
        case([X, W, "[96]", "[]", "[]", ("i32", "[b]"), ("u8", "[]"), ("i8", "[]")]),
        {"y0": "[b, s, 32]", "dtypes": {"y0": "f32", "x5": "i32"}}),
    "per-column weight scales, a past": (
        case([X, W, "[96]", "[]", "[96]", None, ("u8", "[]"), ("i8", "[96]"),
              "[2, b, 4, p, 8]"], n_outputs=2),
        {"y0": "[b, s, 32]", "y1": "[2, b, 4, p + s, 8]"}),
    "backward: the weight's rows from the input, its columns from the bias": (
        case([X, ("i8", "W"), "[96]", "[]", "[]"]), {"x1": "[32, 96]", "y0": "[b, s, 32]"}),
    "f16 outputs": (case([X, W, ("f16", "[96]"), ("f16", "[]"), ("f16", "[]")]),
                    {"dtypes": {"y0": "f16"}}),
    "a float input": (case(["[b, s, 32]", W, "[96]", "[]", "[]"]), "error"),
    "the weight's rows differ from the input's width": (
        case([X, ("i8", "[16, 96]"), "[96]", "[]", "[]"]), "error"),
    "heads that do not split the hidden size": (case([X, W, "[96]", "[]", "[]"],
                                                     {"num_heads": 5}), "error"),
    "the input's scale per column": (case([X, W, "[96]", "[32]", "[]"]), "error"),
    "no num_heads": ({"inputs": [X, W, "[96]", "[]", "[]"], "domain": MS}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QAttention", spec, expected)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(1, 3), s=st.integers(1, 4),
       heads=st.sampled_from([1, 2, 4]), size=st.sampled_from([2, 4]),
       per_column=st.booleans(), mask=st.booleans(), past=st.integers(0, 3),
       signed_weight=st.booleans())
def test_matches_onnxruntime(seed, b, s, heads, size, per_column, mask, past, signed_weight):
    rng = np.random.default_rng(seed)
    d = heads * size
    x = rng.integers(0, 256, (b, s, d)).astype(np.uint8)
    wt, (lo, hi) = (np.int8, (-128, 128)) if signed_weight else (np.uint8, (0, 256))
    w = rng.integers(lo, hi, (d, 3 * d)).astype(wt)
    cols = (3 * d,) if per_column else ()
    arrays = [x, w, rng.standard_normal(3 * d).astype(np.float32), np.float32(0.02),
              np.full(cols, 0.01, np.float32),
              rng.integers(1, s + past + 1, b).astype(np.int32) if mask else None,
              np.uint8(128), np.zeros(cols, wt) if signed_weight else np.full(cols, 128, wt),
              rng.standard_normal((2, b, heads, past, size)).astype(np.float32) if past
              else None]
    check_against_onnxruntime("QAttention", arrays, {"num_heads": heads},
                              n_outputs=2 if past else 1, rtol=1e-4, atol=1e-4)
