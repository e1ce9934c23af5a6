"""Attention (com.microsoft): rules/Attention.lp on data cases, and against onnxruntime."""
import numpy as np
import pytest

from tests.contrib_ops import check_against_ort, infer_contrib

HEADS = {"num_heads": 4}


def test_packed_qkv_with_a_kv_cache():
    sol = infer_contrib("Attention", ["[b, s, 64]", "[64, 192]", "[192]", None,
                                      "[2, b, 4, p, 16]"], HEADS, n_outputs=2)
    assert sol.shape("y0") == "[b, s, 64]"
    assert sol.shape("y1") == "[2, b, 4, p + s, 16]"


def test_symbolic_hidden_size_and_no_past():
    sol = infer_contrib("Attention", ["[b, s, d]", "[d, 3*h]", "B"], HEADS, n_outputs=2)
    assert sol.shape("x2") == "[3*h]" and sol.shape("y0") == "[b, s, h]"
    assert sol.shape("y1") == "[2, b, 4, s, h//4]"
    # weights of unknown width: the hidden size is unknown, never guessed
    sol = infer_contrib("Attention", ["[b, s, d]", "W", "B"], HEADS, n_outputs=2)
    assert sol.shape("x1") == "[d, _1]" and sol.shape("y0") == "[b, s, _2]"


def test_qkv_hidden_sizes():
    sol = infer_contrib("Attention", ["[b, s, 32]", "W"],
                        {**HEADS, "qkv_hidden_sizes": [32, 32, 64]})
    assert sol.shape("x1") == "[32, 128]" and sol.shape("y0") == "[b, s, 64]"


def test_errors():
    assert infer_contrib("Attention", ["[b, s, 64]", "[32, 192]"], HEADS).status == "error"
    assert infer_contrib("Attention", ["[b, s, 64]", "[64, 100]"], HEADS).status == "error"
    assert infer_contrib("Attention", ["[b, s, 64]", "[64, 192]"]).status == "error"


def test_onnx_attention_opset_23():
    # without the domain the node is ONNX's Attention: 3-D with head counts, GQA, a past
    from shape_logic.testing import infer

    sol = infer("Attention", ["[b, s, 64]", "[b, l, 32]", "[b, l, 48]", None,
                              "[b, 2, p, 16]", "[b, 2, p, 24]"],
                {"q_num_heads": 4, "kv_num_heads": 2}, n_outputs=4, opset=23)
    assert sol.shape("y0") == "[b, s, 96]"
    assert sol.shape("y1") == "[b, 2, l + p, 16]" and sol.shape("y2") == "[b, 2, l + p, 24]"
    assert sol.shape("y3") == "[b, 4, s, l + p]"


@pytest.mark.parametrize("past", [0, 3])
def test_matches_onnxruntime(past):
    rng = np.random.default_rng(0)
    f = lambda *s: (rng.standard_normal(s) * 0.1).astype(np.float32)  # noqa: E731
    arrays = [f(2, 5, 16), f(16, 48), f(48)]
    if past:
        arrays += [None, f(2, 2, 4, past, 4)]
    check_against_ort("Attention", arrays, HEADS, n_outputs=2, compare_shapes=(0, 1))
