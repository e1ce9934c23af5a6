"""Sampling (com.microsoft): rules on data cases (the width waits for max_length's value),
and the kernel against onnxruntime on GreedySearch's tiny GPT-2 style decoder: onnxruntime's
CPU sampling is seeded (the `seed` input, 0 without it), so its sequences are reproduced
token for token. Where every row meets eos before max_length onnxruntime leaves the rest of
`sequences` unwritten: the comparisons stop there (pad_token_id is eos_token_id, so a pad
marks a finished row; onnxruntime feeds the pad to the decoder, which must take it)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.kernels.base import KernelError
from tests.contrib_ops import MS, infer_contrib, ort_contrib
from tests.ops.cases import case_test
from tests.ops.test_GreedySearch import BODY, DECODER, MASKED, MASKED_BODY, VOCAB


def attrs(eos=3, pad=None, **more):
    """pad_token_id eos_token_id by default (or 5, where eos is no token: no row ends)."""
    pad = (eos if 0 <= eos < VOCAB else 5) if pad is None else pad
    return {"decoder": BODY, "eos_token_id": eos, "pad_token_id": pad, **more}


def i32(v):
    return np.array(v, np.int32)


def spec(inputs, n_outputs=1, **more):
    return {"inputs": inputs, "attrs": attrs(**more), "n_outputs": n_outputs}


CASES = {
    "a constant max_length: the width": (
        spec([("i32", "[b, s]"), i32([9])]), {"y0": "[b, 9]", "x0": "[b, s]"}),
    "a scalar max_length": (spec([("i32", "[2, 3]"), i32(9)]), {"y0": "[2, 9]"}),
    "max_length a graph input: a fresh width": (
        spec([("i32", "[b, s]"), ("i32", "[1]")]), {"y0": "[b, _1]"}),
    "all the optional inputs": (
        spec([("i32", "[b, s]"), i32([9]), i32([2]), np.array([1.2], np.float32),
              ("i32", "[v]"), ("i32", "[b, w]"), ("i32", "[b, s]"), ("i32", "[p, u]"),
              i32([4])], top_p=0.9),
        {"y0": "[b, 9]", "x4": "[u]", "x5": "[b, u]", "x7": "[b, u]"}),
    "filtered_logits: float32, no shape": (
        spec([("i32", "[b, s]"), i32([9])], n_outputs=2), {"y0": "[b, 9]",
                                                            "dtypes": {"y1": "f32"}}),
    "max_length not above the prompt": (spec([("i32", "[2, 9]"), i32([9])]), "error"),
    "a negative seed": (spec([("i32", "[b, s]"), i32([9])] + [None] * 6 + [i32([-1])]),
                        "error"),
    "an int64 seed": (spec([("i32", "[b, s]"), i32([9])] + [None] * 6 +
                           [("i64", "[1]")]), "error"),
    "a presence_mask vector": (spec([("i32", "[b, s]"), i32([9])] + [None] * 5 +
                                    [("i32", "[7]")]), "error"),
    "masks of two vocabularies": (spec([("i32", "[b, s]"), i32([9]), None, None,
                                        ("i32", "[7]"), ("i32", "[b, 6]")]), "error"),
    "an attention_mask of another shape": (
        spec([("i32", "[2, 3]"), i32([9])] + [None] * 4 + [("i32", "[2, 4]")]), "error"),
    "a prefix mask of another batch": (spec([("i32", "[2, s]"), i32([9]), None, None, None,
                                             ("i32", "[3, 7]")]), "error"),
    "min_tokens_to_keep negative": (spec([("i32", "[b, s]"), i32([9])],
                                         min_tokens_to_keep=-1), "error"),
    "no eos_token_id": ({"inputs": [("i32", "[b, s]"), i32([9])],
                         "attrs": {"decoder": BODY, "pad_token_id": 0}}, "error"),
    "three outputs": (spec([("i32", "[b, s]"), i32([9])], n_outputs=3), "error"),
    # onnxruntime's Sampling::Init enforces model_type 0 (its schema allows T5's 1)
    "model_type 1": (spec([("i32", "[b, s]"), i32([9])], model_type=1, encoder=BODY),
                     "error"),
}


test_case = case_test("Sampling", CASES, domain=MS)


def _stop(seq, s, pad):
    """The columns onnxruntime writes: up to the step where every row has finished."""
    ended = (seq[:, s:] == pad).all(0)
    return s + int(ended.argmax()) + 1 if ended.any() else seq.shape[1]


def check(arrays, n_outputs=1, eos=3, masked=False, **more):
    """Our kernel's sequences equal onnxruntime's (or both reject the inputs, our rules
    too); the rules give their shape and dtype. Returns "refused" where the kernel declines
    to guess (a top-p decision within rounding of its threshold). `masked`: GreedySearch's
    decoder reading its attention mask and positions."""
    ours = attrs(eos, **more, decoder=MASKED_BODY if masked else BODY)
    proto = {**ours, "decoder": MASKED if masked else DECODER}
    shapes = [None if a is None else ("i32" if a.dtype == np.int32 else "f32", list(a.shape))
              for a in arrays]
    shapes[1] = arrays[1]  # (max_length a constant: the rules read its value)
    sol = infer_contrib("Sampling", shapes, ours, n_outputs=n_outputs)
    try:
        want = ort_contrib("Sampling", arrays, proto, n_outputs=n_outputs)
    except Exception:  # noqa: BLE001 - onnxruntime's errors have no common type
        with pytest.raises(Exception):  # (KernelError, or the decoder's own rejection)
            load_kernel("Sampling")(proto, n_outputs=n_outputs, domain=MS)(*arrays)
        return "rejected"
    try:
        got = load_kernel("Sampling")(proto, n_outputs=n_outputs, domain=MS)(*arrays)
    except KernelError as e:
        assert "rounding" in str(e), e
        return "refused"
    assert got[0].dtype == want[0].dtype and got[0].shape == want[0].shape
    stop = _stop(want[0], arrays[0].shape[1], ours["pad_token_id"])
    np.testing.assert_array_equal(got[0][:, :stop], want[0][:, :stop])
    assert n_outputs == 1 or (want[1] is None and got[1] is None)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y0") == f"[{want[0].shape[0]}, {want[0].shape[1]}]"
    assert sol.dtype("y0") == "i32"
    return "ran"


IDS = i32([[1, 2, 3], [4, 2, 1]])
SEED = [None] * 6


ORT_CASES = {
    "top_p 0.9": ([IDS, i32([10])], {"top_p": 0.9}),
    "seeded, custom": ([IDS, i32([10])] + SEED + [i32([7])], {"top_p": 0.6, "custom": 1}),
    "a scalar seed, temperature": ([IDS, i32([10])] + SEED + [i32(123456)],
                                   {"top_p": 0.8, "temperature": 0.5}),
    "rows meet eos, the rest unwritten": ([IDS, i32([12])] + SEED + [i32([3])],
                                          {"top_p": 0.95, "eos": 6}),
    "min_length holds eos back": ([IDS, i32([10]), i32([8])] + [None] * 5 + [i32([3])],
                                  {"top_p": 0.95, "eos": 6}),
    "repetition penalty": ([IDS, i32([10]), None, np.array([1.7], np.float32)],
                           {"top_p": 0.8}),
    "no repeated bigrams": ([IDS, i32([10])] + SEED + [i32([5])],
                            {"top_p": 0.95, "no_repeat_ngram_size": 2}),
    "masks": ([IDS, i32([10]), None, None, i32([1, 0, 1, 1, 0, 1, 1]),
               i32([[0, 0, 0, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0, 0]])], {"top_p": 0.95}),
    # onnxruntime's presence penalty subtracts every mask element's share from the batch's
    # first score (its loop never advances): reproduced
    "presence penalty": ([IDS, i32([10])] + [None] * 5 + [i32([[1, 0, 0, 1, 0, 0, 2],
                                                                [0, 0, 1, 0, 0, 3, 0]])],
                         {"top_p": 0.95, "presence_penalty": 0.7}),
    "min_tokens_to_keep": ([IDS, i32([10])], {"top_p": 0.3, "min_tokens_to_keep": 2}),
    "filter_value 0, -inf": ([IDS, i32([10])] + SEED + [i32([1])], {"top_p": 0.5,
                                                                    "filter_value": 0.0}),
    "vocab_size: the logits read at that stride": ([IDS, i32([10])], {"top_p": 0.95,
                                                                      "vocab_size": 5}),
    "filtered_logits: never written": ([IDS, i32([6])], {"top_p": 0.9, "n_outputs": 2}),
    # the attention_mask input is the decoder's first mask; the positions count the
    # prompt's tokens other than pad all the same (GreedySearch's)
    "an attention mask": ([i32([[1, 2, 3], [3, 2, 1]]), i32([10])] + [None] * 4 +
                          [i32([[0, 1, 1], [1, 0, 1]]), None, i32([9])],
                          {"top_p": 0.95, "masked": True}),
    "pads, no attention mask": ([i32([[1, 3, 3], [3, 2, 1]]), i32([10])] + SEED + [i32([4])],
                                {"top_p": 0.95, "masked": True}),
    "an attention mask of 0s and 2s, penalties": (
        [i32([[1, 2, 4], [6, 2, 1]]), i32([10]), None, np.array([1.4], np.float32)] +
        [None] * 2 + [i32([[2, 0, 1], [0, 2, 0]])], {"top_p": 0.9, "masked": True,
                                                      "no_repeat_ngram_size": 3}),
}


@pytest.mark.parametrize("name", ORT_CASES)
def test_kernel_matches_onnxruntime(name):
    arrays, more = ORT_CASES[name]
    assert check(arrays, **more) == "ran"


def test_default_top_p_is_refused_not_guessed():
    """top_p 0 with min_tokens_to_keep 0 (the defaults) filters on a sum of 1 against
    1 - 0: which side MLAS's rounding lands on decides it, so the kernel declines."""
    assert check([IDS, i32([8])]) == "refused"


@pytest.mark.parametrize("arrays, more", [
    ([IDS, i32([6])] + SEED + [i32([-2])], {}),
    ([IDS, i32([6])], {"min_tokens_to_keep": VOCAB}),
    ([IDS, i32([6]), None, np.array([0.0], np.float32)], {"top_p": 0.5}),
    ([IDS, i32([6])] + [None] * 5 + [np.zeros((2, 6), np.int32)], {"top_p": 0.5}),
    ([IDS, i32([6])], {"top_p": 0.5, "vocab_size": VOCAB + 2}),
])
def test_onnxruntime_rejects_and_so_do_we(arrays, more):
    assert check(arrays, **more) == "rejected"


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), b=st.integers(1, 3), s=st.integers(1, 3),
       extra=st.integers(1, 5), top_p=st.floats(0.05, 1.0), custom=st.booleans(),
       temperature=st.sampled_from([1.0, 0.7, 1.6, 0.0]), keep=st.integers(0, 2),
       eos=st.integers(0, VOCAB), fed=st.booleans(),
       filter_value=st.sampled_from([None, float("-inf"), -5.0]), masked=st.booleans())
def test_seeded_runs_match_onnxruntime(seed, b, s, extra, top_p, custom, temperature, keep,
                                       eos, fed, filter_value, masked):
    """masked: pads in the prompt, an attention mask (or not), the decoder reading it."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, VOCAB, (b, s)).astype(np.int32)
    attention = None
    if masked:
        ids[rng.random((b, s)) < 0.3] = eos if eos < VOCAB else 5
        attention = (rng.random((b, s)) < 0.7).astype(np.int32) if seed % 2 else None
    arrays = [ids, i32([s + extra])] + [None] * 4 + [attention]
    arrays += [None, i32([seed])] if fed else []
    while arrays[-1] is None:
        arrays.pop()
    more = {"top_p": top_p, "custom": int(custom), "temperature": temperature,
            "min_tokens_to_keep": keep, "eos": eos, "masked": masked}
    if filter_value is not None:
        more["filter_value"] = filter_value
    assert check(arrays, **more) in ("ran", "refused")


def test_a_whole_model_runs_as_onnxruntime_runs_it(tmp_path):
    """Imported, the decoder keeps its past's declared heads and head size (the first,
    empty cache): solved, then run by our executor, as onnxruntime runs it."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto as TP, helper, numpy_helper

    import shape_logic

    node = helper.make_node("Sampling", ["input_ids", "max_length", "", "", "", "", "", "",
                                         "seed"], ["sequences"], domain=MS, decoder=DECODER,
                            eos_token_id=3, pad_token_id=3, model_type=0, top_p=0.9)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("input_ids", TP.INT32, ["batch", "seq"])],
        [helper.make_empty_tensor_value_info("sequences")],
        [numpy_helper.from_array(i32([10]), "max_length"),
         numpy_helper.from_array(i32([11]), "seed")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid(MS, 1)])
    onnx.save(model, tmp_path / "sampling.onnx")
    sol = shape_logic.solve(str(tmp_path / "sampling.onnx"))
    assert sol.status == "ok" and sol.shape("sequences") == "[batch, 10]"
    ids = i32([[1, 2, 4], [4, 2, 1]])
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]
                                ).run(None, {"input_ids": ids})[0]
    got = shape_logic.run(str(tmp_path / "sampling.onnx"), {"input_ids": ids})["sequences"]
    assert got.shape == want.shape and got.dtype == want.dtype
    # (where every row has met eos, onnxruntime leaves the rest unwritten)
    done = next((t for t in range(ids.shape[1], want.shape[1])
                 if (want[:, t] == 3).all()), want.shape[1])
    np.testing.assert_array_equal(got[:, :done], want[:, :done])
