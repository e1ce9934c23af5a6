"""MultiHeadAttention (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np
import pytest

from tests.contrib_ops import check_against_ort, infer_contrib

HEADS = {"num_heads": 4}


def test_cross_attention_with_a_cache():
    sol = infer_contrib("MultiHeadAttention",
                        ["[b, s, 64]", "[b, l, 64]", "[b, l, 32]", None, None, None,
                         "[b, 4, p, 16]", "[b, 4, p, 8]"], HEADS, n_outputs=3)
    assert sol.shape("y0") == "[b, s, 32]"
    assert sol.shape("y1") == "[b, 4, l + p, 16]"
    assert sol.shape("y2") == "[b, 4, l + p, 8]"


def test_errors():
    bad = ["[b, s, 64]", "[b, l, 32]", "[b, l, 32]"]
    assert infer_contrib("MultiHeadAttention", bad, HEADS).status == "error"
    assert infer_contrib("MultiHeadAttention", ["[b, s, 64]"] * 3).status == "error"


@pytest.mark.parametrize("past", [0, 2])
def test_matches_onnxruntime(past):
    rng = np.random.default_rng(0)
    f = lambda *s: (rng.standard_normal(s) * 0.3).astype(np.float32)  # noqa: E731
    arrays = [f(2, 3, 16), f(2, 5, 16), f(2, 5, 16)]
    n_out = 1
    if past:
        arrays += [None, None, None, f(2, 4, past, 4), f(2, 4, past, 4)]
        n_out = 3
    check_against_ort("MultiHeadAttention", arrays, HEADS, n_outputs=n_out,
                      compare_shapes=range(n_out))
