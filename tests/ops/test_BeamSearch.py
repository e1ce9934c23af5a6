"""BeamSearch (com.microsoft): rules on data cases (the sizes wait for max_length's,
num_beams' and num_return_sequences' values), whole ONNX models with their subgraphs, and
the kernel and the rules against onnxruntime on a tiny GPT-2 style decoder and a tiny T5
style encoder and decoder (model_type 1)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto as TP, helper, numpy_helper

from shape_logic.kernels import load_kernel
from shape_logic.kernels.base import KernelError
from shape_logic.kernels.GreedySearch import body_of
from tests.contrib_ops import MS, check_search, check_whole_model, search_model, search_values
from tests.ops.cases import case_test
from tests.ops.generation_models import VOCAB, gpt2_decoder, t5_decoder, t5_encoder


def beam_decoder():
    """GreedySearch's decoder with its history term spread over the vocabulary: there the
    term shifts a whole row of logits (log_softmax cancels it), so the next token depends on
    the last one alone and reordered sequences tie; here it weighs each token differently
    (sin(sum of the history * c[token])), which keeps the beams' scores apart."""
    g = gpt2_decoder()
    mul = next(n for n in g.node if n.op_type == "Mul")
    unsq = next(n for n in g.node if n.op_type == "Unsqueeze" and n.input[0] == "hist2")
    i, j = list(g.node).index(mul), list(g.node).index(unsq)
    first, second = helper.make_node("Unsqueeze", ["hist", "ax12"], ["histu"]), \
        helper.make_node("Mul", ["histu", "c"], ["hist3"])
    g.node[i].CopyFrom(first)  # (the Mul came first: the Unsqueeze takes its place)
    g.node[j].CopyFrom(second)
    c = next(t for t in g.initializer if t.name == "c")
    c.CopyFrom(numpy_helper.from_array(np.linspace(0.013, 0.171, VOCAB).astype(np.float32),
                                       "c"))
    return g


DECODER = beam_decoder()
BODY = body_of(DECODER)  # (the importer's graph object, its inputs' shapes declared)
ENCODER, T5_DECODER = t5_encoder(), t5_decoder()
T5 = {"encoder": body_of(ENCODER), "decoder": body_of(T5_DECODER), "model_type": 1,
      "decoder_start_token_id": 0}
T5_PROTO = {"encoder": ENCODER, "decoder": T5_DECODER}


def attrs(eos=3, pad=5, **more):
    return {"decoder": BODY, "eos_token_id": eos, "pad_token_id": pad, **more}


def i32(v):
    return np.array(v, np.int32)


IDS, F = ("i32", "[b, s]"), ("f32", "[]")
VALUES = [i32([9]), i32(1), i32(3), i32(2), F]  # max_length, min_length, beams, returns, lp


def spec(inputs, n_outputs=3, **more):
    return {"inputs": inputs, "attrs": {k: v for k, v in attrs(**more).items() if v is not None},
            "n_outputs": n_outputs}


CASES = {
    "constant values: the sizes": (
        spec([IDS] + VALUES), {"y0": "[b, 2, 9]", "y1": "[b, 2]", "y2": "[9 - s, b, 3, 7]",
                               "dtypes": {"y0": "i32", "y1": "f32", "y2": "f32"}}),
    "a concrete prompt": (spec([("i32", "[2, 4]")] + VALUES),
                          {"y0": "[2, 2, 9]", "y2": "[5, 2, 3, 7]"}),
    "values graph inputs: fresh sizes": (
        spec([IDS, ("i32", "[1]"), ("i32", "[]"), ("i32", "[]"), ("i32", "[1]"), F]),
        {"y0": "[b, _1, _2]", "y1": "[b, _1]", "y2": "[_3, b, _4, 7]"}),
    "the masks: batch and vocabulary": (
        spec([IDS] + VALUES + [F, ("i32", "[v]"), ("i32", "[p, q]"), ("i32", "[a, c]")]),
        {"y2": "[9 - c, a, 3, 7]", "x7": "[7]", "x8": "[a, 7]", "x9": "[a, c]"}),
    "the vocab_size attribute": (spec([IDS] + VALUES, vocab_size=5),
                                 {"y2": "[9 - s, b, 3, 5]", "y1": "[b, 2]"}),
    "float16 scores": (spec([IDS] + VALUES[:4] + [("f16", "[1]")]),
                       {"y1": "[b, 2]", "dtypes": {"y1": "f16", "y2": "f16"}}),
    "one output": (spec([IDS] + VALUES, 1), {"y0": "[b, 2, 9]"}),
    "vocab_size above the logits' width": (spec([IDS] + VALUES, vocab_size=8), "error"),
    "a vocab_mask of another width": (spec([IDS] + VALUES + [None, ("i32", "[6]")]), "error"),
    "max_length not above the prompt": (spec([("i32", "[2, 9]")] + VALUES), "error"),
    "max_length above 4096": (spec([IDS, i32(4097)] + VALUES[1:]), "error"),
    "more returns than beams": (spec([IDS] + VALUES[:2] + [i32(2), i32(3), F]), "error"),
    "no beams": (spec([IDS] + VALUES[:2] + [i32(0), i32(1), F]), "error"),
    "129 beams": (spec([IDS] + VALUES[:2] + [i32(129), i32(1), F]), "error"),
    "no returns": (spec([IDS] + VALUES[:2] + [i32(2), i32(0), F]), "error"),
    "no length_penalty": (spec([IDS] + VALUES[:4]), "error"),
    "no min_length": (spec([IDS, VALUES[0], None] + VALUES[2:]), "error"),
    "max_length of two elements": (spec([IDS, ("i32", "[2]")] + VALUES[1:]), "error"),
    "num_beams a matrix": (spec([IDS] + VALUES[:2] + [("i32", "[1, 1]")] + VALUES[3:]),
                           "error"),
    "a negative logits_processor": (spec([IDS] + VALUES + [None] * 5 + [i32(-1)]), "error"),
    "a vocab_mask of a matrix": (spec([IDS] + VALUES + [None, ("i32", "[1, 7]")]), "error"),
    "int64 ids": (spec([("i64", "[b, s]")] + VALUES), "error"),
    "ids not a matrix": (spec([("i32", "[s]")] + VALUES), "error"),
    "a float64 length_penalty": (spec([IDS] + VALUES[:4] + [("f64", "[]")]), "error"),
    "an attention_mask of another shape": (
        spec([("i32", "[2, 3]")] + VALUES + [None, None, None, ("i32", "[2, 4]")]), "error"),
    "four outputs": (spec([IDS] + VALUES, 4), "error"),
    "no pad_token_id": ({"inputs": [IDS] + VALUES, "attrs": {"decoder": BODY,
                                                             "eos_token_id": 3}}, "error"),
    "model_type 3": (spec([IDS] + VALUES, model_type=3), "error"),
    # T5 (model_type 1): the sequences start with decoder_start_token_id (length 1)
    "T5: the sizes": (spec([IDS] + VALUES, **T5),
                      {"y0": "[b, 2, 9]", "y1": "[b, 2]", "y2": "[8, b, 3, 7]"}),
    "T5: a prompt longer than max_length": (spec([("i32", "[2, 12]")] + VALUES, **T5),
                                            {"y0": "[2, 2, 9]", "y2": "[8, 2, 3, 7]"}),
    "T5: max_length 1": (spec([IDS, i32(1)] + VALUES[1:], **T5), "error"),
    "T5: no encoder": (spec([IDS] + VALUES, **{**T5, "encoder": None}), "error"),
    "T5: a 3-input encoder without decoder_start_token_id": (
        spec([IDS] + VALUES, **{**T5, "decoder_start_token_id": -1}), "error"),
    "T5: ids of rank 3": (spec([("i32", "[b, s, t]")] + VALUES, **T5), "error"),
}

test_case = case_test("BeamSearch", CASES, domain=MS)


IDS_INPUT = helper.make_tensor_value_info("input_ids", TP.INT32, ["batch", "seq"])


def test_a_whole_model_with_its_decoder_subgraph_imports_solves_and_runs(tmp_path):
    """Imported, the decoder keeps its declared inputs (the past's heads and head size, for
    the first, empty cache): solved, and run by our executor as by onnxruntime."""
    model = search_model("BeamSearch", IDS_INPUT, search_values(12, 1, 4, 2), decoder=DECODER,
                         eos_token_id=3, pad_token_id=5, model_type=0)
    check_whole_model(model, tmp_path / "beam.onnx", {"input_ids": i32([[1, 2, 4], [4, 2, 1]])},
                      ["[batch, 2, 12]", "[batch, 2]", "[12 - seq, batch, 4, 7]"])


def check(arrays, more, n_outputs, t5=False):
    """check_search of BeamSearch: GPT-2's decoder, or T5's encoder and decoder (max_length
    the start's length + 1: onnxruntime runs the decoder on unset inputs)."""
    proto = attrs(**{**({**T5, **T5_PROTO} if t5 else {"decoder": DECODER}), **more})
    return check_search("BeamSearch", arrays, proto, n_outputs,
                        unset="the start's length + 1" if t5 else None)


ORT_CASES = {
    "4 beams, 2 returned, every output": (
        [i32([[1, 2, 3], [4, 2, 1]]), i32(8), i32(1), i32(4), i32(2), np.float32(1.0)], {}),
    "eos met early, early_stopping": (
        [i32([[3, 3], [2, 4], [1, 1]]), i32(7), i32(0), i32(3), i32(3), np.float32(0.5)],
        {"eos": 0, "early_stopping": 1}),
    "min_length, a repetition penalty, a prefix mask": (
        [i32([[6, 1]]), i32(9), i32(5), i32(2), i32(1), np.float32(2.0), np.float32(1.3),
         None, i32([[1, 0, 1, 1, 1, 0, 1]])], {"eos": 4}),
    "pads in the prompt, an attention mask, no_repeat_ngram": (
        [i32([[5, 2, 1], [6, 5, 0]]), i32(8), i32(2), i32(3), i32(2), np.float32(-0.5),
         None, i32([1, 1, 1, 1, 0, 1, 1]), None, i32([[0, 1, 1], [1, 1, 1]])],
        {"no_repeat_ngram_size": 2}),
    "an empty batch": ([np.zeros((0, 2), np.int32), i32(6), i32(1), i32(2), i32(2),
                        np.float32(1.0)], {}),
}


@pytest.mark.parametrize("name", ORT_CASES)
def test_kernel_and_shapes_match_onnxruntime(name):
    arrays, more = ORT_CASES[name]
    assert check(arrays, more, 3) is not None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.sampled_from([1, 1, 2, 3, 0]),
       s=st.integers(1, 4), beams=st.integers(1, 4), extra=st.integers(-1, 1),
       grow=st.integers(-1, 5), lp=st.sampled_from([1.0, 0.5, 2.0, -0.7, 0.0]),
       early=st.booleans(), n_outputs=st.integers(1, 3), options=st.integers(0, 31))
def test_matches_onnxruntime(seed, b, s, beams, extra, grow, lp, early, n_outputs, options):
    """extra: num_return_sequences = num_beams + extra (above it: rejected); grow:
    max_length - prompt length (0 or less: rejected); options, bit by bit: a repetition
    penalty, a vocab_mask, a prefix_vocab_mask, an attention_mask, no_repeat_ngram_size."""
    rng = np.random.default_rng(seed)
    returns = max(1, min(beams + extra, int(rng.integers(1, beams + 1)) + max(extra, 0)))
    arrays = [rng.integers(0, VOCAB, (b, s)).astype(np.int32), i32(s + grow),
              i32(int(rng.integers(0, s + 4))), i32(beams), i32(returns), np.float32(lp),
              np.float32(rng.choice([0.8, 1.3])) if options & 1 else None,
              (rng.random(VOCAB) < 0.8).astype(np.int32) if options & 2 else None,
              (rng.random((b, VOCAB)) < 0.7).astype(np.int32) if options & 4 else None,
              (rng.random((b, s)) < 0.8).astype(np.int32) if options & 8 else None]
    while arrays[-1] is None:
        arrays.pop()
    more = {"eos": int(rng.integers(0, VOCAB)), "pad": int(rng.integers(0, VOCAB)),
            "early_stopping": int(early), "no_repeat_ngram_size": 2 if options & 16 else 0}
    got = check(arrays, more, n_outputs)
    assert (got is None) == (grow <= 0 or returns > beams)


T5_ORT_CASES = {
    "3 beams, 2 returned, every output": (
        [i32([[1, 2, 4], [5, 2, 1]]), i32(6), i32(1), i32(3), i32(2), np.float32(1.0)], {}),
    "eos met early, early_stopping": (
        [i32([[3, 3], [2, 4], [1, 1]]), i32(7), i32(0), i32(3), i32(3), np.float32(0.5)],
        {"eos": 0, "early_stopping": 1}),
    "one beam, min_length, a repetition penalty": (
        [i32([[1, 2, 4], [5, 2, 1]]), i32(7), i32(3), i32(1), i32(1), np.float32(1.0),
         np.float32(1.3)], {}),
    "the masks, no_repeat_ngram": (
        [i32([[1, 2, 4], [5, 2, 1]]), i32(7), i32(4), i32(4), i32(3), np.float32(-0.5),
         np.float32(0.8), i32([1, 1, 1, 1, 0, 1, 1]),
         i32([[1, 0, 1, 1, 1, 1, 1], [1, 1, 1, 0, 1, 1, 0]]), i32([[1, 1, 0], [0, 1, 1]])],
        {"no_repeat_ngram_size": 2}),
    "an empty prompt": ([np.zeros((2, 0), np.int32), i32(5), i32(1), i32(2), i32(2),
                         np.float32(1.0)], {}),
    "a decoder without encoder_hidden_states": (
        [i32([[1, 2, 4], [5, 5, 1]]), i32(6), i32(1), i32(3), i32(2), np.float32(1.0)],
        {"decoder": t5_decoder(hidden=False)}),
    "a decoder reading the whole sequences": (
        [i32([[1, 2, 4], [5, 2, 1]]), i32(6), i32(1), i32(3), i32(2), np.float32(1.0)],
        {"decoder": t5_decoder(width="w"), "decoder_start_token_id": 4}),
}


@pytest.mark.parametrize("name", T5_ORT_CASES)
def test_t5_kernel_and_shapes_match_onnxruntime(name):
    arrays, more = T5_ORT_CASES[name]
    assert check(arrays, more, 3, t5=True) is not None


def test_t5_what_the_kernel_refuses():
    """onnxruntime crashes on an empty batch, runs the decoder on unset inputs at max_length
    2 (T5's)."""
    kernel = load_kernel("BeamSearch")({**attrs(), **T5}, n_outputs=3, domain=MS)
    values = [i32(2), i32(1), i32(2), i32(1), np.float32(1.0)]
    for ids in (np.zeros((0, 2), np.int32), i32([[1, 2]])):
        with pytest.raises(KernelError, match="not supported"):
            kernel(ids, *values)


def test_a_whole_t5_model_imports_solves_and_runs(tmp_path):
    model = search_model("BeamSearch", IDS_INPUT, search_values(8, 1, 3, 2), encoder=ENCODER,
                         decoder=T5_DECODER, eos_token_id=3, pad_token_id=5,
                         decoder_start_token_id=0, model_type=1)
    check_whole_model(model, tmp_path / "t5.onnx",
                      {"input_ids": i32([[1, 2, 4, 6], [5, 2, 1, 1]])},
                      ["[batch, 2, 8]", "[batch, 2]", "[7, batch, 3, 7]"])


T5_DECODERS = [T5_DECODER, t5_decoder(hidden=False), t5_decoder(width="w")]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.sampled_from([1, 1, 2, 3]),
       s=st.integers(0, 4), beams=st.integers(1, 4), extra=st.integers(-1, 1),
       width=st.sampled_from([1, 3, 4, 6, 7]), lp=st.sampled_from([1.0, 0.5, -0.7]),
       early=st.booleans(), n_outputs=st.integers(1, 3), options=st.integers(0, 31),
       decoder=st.integers(0, 2))
def test_t5_matches_onnxruntime(seed, b, s, beams, extra, width, lp, early, n_outputs,
                                options, decoder):
    """As test_matches_onnxruntime, for T5 (no empty batch: onnxruntime crashes on it);
    width is max_length (1: rejected; 2: onnxruntime runs the decoder on unset inputs, its
    results garbage or an error); decoder: with encoder_hidden_states, without, or reading
    the whole sequences."""
    rng = np.random.default_rng(seed)
    returns = max(1, min(beams + extra, int(rng.integers(1, beams + 1)) + max(extra, 0)))
    arrays = [rng.integers(0, VOCAB, (b, s)).astype(np.int32), i32(width),
              i32(int(rng.integers(0, 5))), i32(beams), i32(returns), np.float32(lp),
              np.float32(rng.choice([0.8, 1.3])) if options & 1 else None,
              (rng.random(VOCAB) < 0.8).astype(np.int32) if options & 2 else None,
              (rng.random((b, VOCAB)) < 0.7).astype(np.int32) if options & 4 else None,
              (rng.random((b, s)) < 0.8).astype(np.int32) if options & 8 else None]
    while arrays[-1] is None:
        arrays.pop()
    more = {"eos": int(rng.integers(0, VOCAB)), "pad": int(rng.integers(0, VOCAB)),
            "early_stopping": int(early), "no_repeat_ngram_size": 2 if options & 16 else 0,
            "decoder_start_token_id": int(rng.integers(0, VOCAB)),
            "decoder": T5_DECODERS[decoder]}
    got = check(arrays, more, n_outputs, t5=True)
    assert (got is None) == (width <= 1 or returns > beams)
