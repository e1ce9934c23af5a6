"""QEmbedLayerNormalization (com.microsoft): rules on data cases, and the rules and the kernel
against onnxruntime on random embeddings (with and without segments, past the position
table)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime


def q(shape, dtype="u8"):
    return (dtype, shape)


def case(tables, ids="[b, s]", segments=True, outputs=None, scale="[]"):
    word, pos, seg, gamma, beta = tables
    inputs = ([("i32", ids), ("i32", ids) if segments else None, word, pos,
               seg if segments else None, gamma, beta, ("i32", ids)] +
              [scale, scale, scale if segments else None, scale, scale] +
              [("u8", "[]"), ("u8", "[]"), ("u8", "[]") if segments else None,
               ("u8", "[]"), ("u8", "[]")])
    spec = {"inputs": inputs, "attrs": {"epsilon": 1e-12}, "domain": MS, "n_outputs": 2}
    return {**spec, "outputs": outputs} if outputs else spec


BERT = [q("[100, 32]"), q("[64, 32]"), q("[2, 32]"), q("[32]"), q("[32]")]
CASES = {
    "a quantized BERT's embeddings": (case(BERT), {"y0": "[b, s, 32]", "y1": "[b]", "dtypes": {
        "y0": "f32", "y1": "i32", "x8": "f32"}}),
    "DistilBERT's: no segments": (case(BERT, segments=False), {"y0": "[b, s, 32]"}),
    "the hidden size from gamma": (case([q("[100, H]"), q("[64, H]"), q("[2, H]"), q("[8]"),
                                         q("[G]")]), {"y0": "[b, s, 8]", "x2": "[100, 8]"}),
    "a known length within the position table": (case(BERT, ids="[2, 64]"),
                                                 {"y0": "[2, 64, 32]"}),
    "past the position table": (case(BERT, ids="[2, 65]"), "error"),
    "float tables": (case(["[100, 32]", q("[64, 32]"), q("[2, 32]"), q("[32]"), q("[32]")]),
                     "error"),
    "a zero point of another type": (case([q("[100, 32]", "i8")] + BERT[1:]), "error"),
    "scales per column": (case(BERT, scale="[32]"), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QEmbedLayerNormalization", spec, expected)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(1, 3), s=st.integers(1, 9),
       h=st.sampled_from([4, 8]), rows=st.sampled_from([4, 8]), segments=st.booleans(),
       signed=st.booleans())
def test_matches_onnxruntime(seed, b, s, h, rows, segments, signed):
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    qt = lambda *shape: rng.integers(lo, hi, shape).astype(dtype)  # noqa: E731
    scale = lambda: np.float32(rng.random() * 0.02 + 0.005)  # noqa: E731
    zero = lambda: np.asarray(rng.integers(lo, hi), dtype)  # noqa: E731
    arrays = [rng.integers(0, 20, (b, s)).astype(np.int32),
              rng.integers(0, 2, (b, s)).astype(np.int32) if segments else None,
              qt(20, h), qt(rows, h), qt(2, h) if segments else None, qt(h), qt(h),
              np.ones((b, s), np.int32), scale(), scale(), scale() if segments else None,
              scale(), scale(), zero(), zero(), zero() if segments else None, zero(), zero()]
    check_against_onnxruntime("QEmbedLayerNormalization", arrays, {"epsilon": 1e-12},
                              n_outputs=2, rtol=1e-4, atol=1e-4)
