"""MultiHeadAttention (com.microsoft): rules on data cases for the three input forms
(separate 3-D or 4-D BNSH keys and values, packed KV, packed QKV), and the kernel and
shapes against onnxruntime (packed forms, which onnxruntime's CPU kernel does not run,
against onnxruntime on the same tensors unpacked)."""
import numpy as np
import pytest

from shape_logic.kernels import load_kernel
from tests.contrib_ops import check_against_ort, check_contrib_case, infer_contrib, ort_contrib

HEADS = {"num_heads": 4}
CACHE = [None, None, None, "[b, 4, p, 16]", "PV"]

CASES = {
    "cross attention with a cache": (
        ["[b, s, 64]", "[b, l, 64]", "[b, l, 32]", None, None, None, "[b, 4, p, 16]",
         "[b, 4, p, 8]"], 3,
        {"y0": "[b, s, 32]", "y1": "[b, 4, l + p, 16]", "y2": "[b, 4, l + p, 8]"}),
    "4-D keys and values (BNSH): heads and head size": (
        ["[b, s, 64]", "[b, h, l, e]", "V"], 3,
        {"x1": "[b, 4, l, 16]", "x2": "[b, 4, l, 16]", "y0": "[b, s, 64]",
         "y1": "[b, 4, l, 16]"}),
    "4-D keys after a past": (["[b, s, 64]", "[b, 4, l, 16]", "V"] + CACHE, 3,
                              {"y1": "[b, 4, l + p, 16]", "y2": "[b, 4, l + p, 16]"}),
    "packed KV": (["[b, s, 64]", "[b, l, h, c, e]", None] + CACHE, 3,
                  {"x1": "[b, l, 4, 2, 16]", "y0": "[b, s, 64]", "y1": "[b, 4, l + p, 16]"}),
    "packed QKV: L is S": (["[b, s, 4, 3, 16]", None, None] + CACHE, 3,
                           {"y0": "[b, s, 64]", "y1": "[b, 4, p + s, 16]"}),
    "buffer sharing: the present's length is open": (
        ["[b, s, 64]", "[b, l, 64]", "[b, l, 64]"] + CACHE + [("i32", "[1]")], 3,
        {"y1": "[b, 4, _, 16]"}),
    "keys and values of different lengths": (["[b, s, 64]", "[b, l, 64]", "[b, m, 64]"], 1,
                                             {"x2": "[b, l, 64]"}),
    "Q's hidden size is not a whole number of heads": (["[b, s, 62]", "[b, l, 62]",
                                                        "[b, l, 62]"], 1, "error"),
    "keys of another hidden size": (["[b, s, 64]", "[b, l, 32]", "[b, l, 32]"], 1, "error"),
    "4-D keys with a bias": (["[b, s, 64]", "[b, 4, l, 16]", "V", "[192]"], 1, "error"),
    "a value without a key": (["[b, s, 4, 3, 16]", None, "[b, l, 64]"], 1, "error"),
    "packed QKV with 2 in place of 3": (["[b, s, 4, 2, 16]"], 1, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, n_out, want = CASES[name]
    check_contrib_case("MultiHeadAttention", inputs, HEADS, n_out, want)


def test_num_heads_is_required():
    assert infer_contrib("MultiHeadAttention", ["[b, s, 64]"] * 3).status == "error"


def f(rng, *shape):
    return (rng.standard_normal(shape) * 0.3).astype(np.float32)


def _compare(arrays, attrs, n_out, want_arrays=None):
    """Our shapes and kernel against onnxruntime (run on `want_arrays` when given)."""
    if want_arrays is None:
        want = check_against_ort("MultiHeadAttention", arrays, attrs, n_outputs=n_out,
                                 compare_shapes=range(n_out))
    else:
        want = ort_contrib("MultiHeadAttention", want_arrays, attrs, n_out)
        sol = infer_contrib("MultiHeadAttention", [None if a is None else
                                                   ("f32", list(a.shape)) for a in arrays],
                            attrs, n_outputs=n_out)
        for k in range(n_out):
            assert sol.shape(f"y{k}") == str(list(want[k].shape)), k
    got = load_kernel("MultiHeadAttention")(attrs, n_outputs=n_out)(*arrays)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"output {k}")


RNG = np.random.default_rng(0)
B, S, L, P = 2, 3, 5, 2
MASKS = {"lengths [B]": np.array([5, 3], np.int32),
         "[B, total]": (RNG.random((B, L)) < 0.7).astype(np.int32),
         "[B, S, total]": (RNG.random((B, S, L)) < 0.7).astype(np.int32)}
MASKS["[B, total]"][:, 0] = 1
MASKS["[B, S, total]"][:, :, 0] = 1


@pytest.mark.parametrize("past", [0, P])
@pytest.mark.parametrize("keys", ["3-D", "4-D"])
def test_separate_keys_match_onnxruntime(past, keys):
    rng = np.random.default_rng(past)
    k, v = (f(rng, B, L, 64), f(rng, B, L, 64)) if keys == "3-D" else \
        (f(rng, B, 4, L, 16), f(rng, B, 4, L, 16))
    arrays = [f(rng, B, S, 64), k, v]
    n_out = 1
    if past:
        arrays += [None, None, None, f(rng, B, 4, past, 16), f(rng, B, 4, past, 16)]
        n_out = 3
    _compare(arrays, HEADS, n_out)


@pytest.mark.parametrize("mask", MASKS)
def test_masks_and_biases_match_onnxruntime(mask):
    rng = np.random.default_rng(1)
    arrays = [f(rng, B, S, 64), f(rng, B, L, 64), f(rng, B, L, 64), f(rng, 192),
              MASKS[mask], f(rng, 1, 4, S, L)]
    _compare(arrays, {**HEADS, "scale": 0.3}, 1)


@pytest.mark.parametrize("past", [0, P])
def test_unidirectional_self_attention_matches_onnxruntime(past):
    rng = np.random.default_rng(3)
    arrays = [f(rng, B, S, 64), f(rng, B, S, 64), f(rng, B, S, 64)]
    if past:
        arrays += [None, None, None, f(rng, B, 4, past, 16), f(rng, B, 4, past, 16)]
    _compare(arrays, {**HEADS, "unidirectional": 1}, 3 if past else 1)
    cross = [f(rng, B, S, 64), f(rng, B, L, 64), f(rng, B, L, 64)]
    with pytest.raises(ValueError, match="self-attention"):
        load_kernel("MultiHeadAttention")({**HEADS, "unidirectional": 1})(*cross)


def test_packed_forms_match_onnxruntime_unpacked():
    rng = np.random.default_rng(2)
    q, k, v = f(rng, B, S, 4, 16), f(rng, B, L, 4, 16), f(rng, B, L, 4, 16)
    past = [None, None, None, f(rng, B, 4, P, 16), f(rng, B, 4, P, 16)]
    flat = lambda t: t.reshape(t.shape[0], t.shape[1], -1)  # noqa: E731
    _compare([flat(q), np.stack([k, v], axis=3), None] + past, HEADS, 3,
             want_arrays=[flat(q), flat(k), flat(v)] + past)
    kq, vq = f(rng, B, S, 4, 16), f(rng, B, S, 4, 16)
    _compare([np.stack([q, kq, vq], axis=3)], HEADS, 3,
             want_arrays=[flat(q), flat(kq), flat(vq)])
