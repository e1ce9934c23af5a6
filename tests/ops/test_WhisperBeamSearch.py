"""WhisperBeamSearch (com.microsoft): rules on data cases (the sizes wait for max_length's,
num_beams' and num_return_sequences' values; the start's length is decoder_input_ids'
width, else 1), a whole ONNX model with its subgraphs, and the kernel and the rules
against onnxruntime on a tiny Whisper style encoder and decoder."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto as TP, helper

from shape_logic.kernels import load_kernel
from shape_logic.kernels.base import KernelError
from shape_logic.kernels.GreedySearch import body_of
from tests.contrib_ops import MS, check_search, check_whole_model, search_model, search_values
from tests.ops.cases import case_test
from tests.ops.generation_models import (T5_HEADS, T5_HIDDEN, T5_SIZE, VOCAB, _t5_consts,
                                         _t5_value, encoder_presents, t5_decoder)

MELS = 3


def whisper_encoder(vocab=VOCAB):
    """The encoder (and the decoder's initialization), one layer: (encoder_input_ids: the
    features [b, n_mels, frames], decoder_input_ids [b, length]) -> (logits [b, length,
    vocab], encoder_hidden_states, present_key_self_0, present_value_self_0,
    present_key_cross_0, present_value_cross_0): hidden states the features' projection,
    the cross presents its heads, the self presents the start tokens', the logits of the
    start tokens' running sums and the summed hidden states."""
    rng = np.random.default_rng(3)
    p, d, w = (rng.standard_normal(s).astype(np.float32) for s in
               ((MELS, T5_HIDDEN), (vocab, T5_HIDDEN), (T5_HIDDEN, vocab)))
    n, f32 = helper.make_node, TP.FLOAT
    kv = lambda name, s: _t5_value(name, f32, ["b", T5_HEADS, s, T5_SIZE])  # noqa: E731
    inputs = [_t5_value("encoder_input_ids", f32, ["b", MELS, "f"]),
              _t5_value("decoder_input_ids", TP.INT32, ["b", "l"])]
    outputs = [_t5_value("logits", f32, ["b", "l", vocab]),
               _t5_value("encoder_hidden_states", f32, ["b", "f", T5_HIDDEN]),
               kv("present_key_self_0", "l"), kv("present_value_self_0", "l"),
               kv("present_key_cross_0", "f"), kv("present_value_cross_0", "f")]
    nodes = [
        n("Transpose", ["encoder_input_ids"], ["ft"], perm=[0, 2, 1]),
        n("MatMul", ["ft", "P"], ["encoder_hidden_states"]),
        *encoder_presents(),
        n("CumSum", ["dem", "one"], ["dcum"]), n("Mul", ["ctx", "c"], ["ctx2"]),
        n("Add", ["dcum", "ctx2"], ["z"]), n("Tanh", ["z"], ["tz"]),
        n("MatMul", ["tz", "W"], ["logits"])]
    inits = _t5_consts(("P", p), ("D", d), ("W", w), ("one", [1]),
                       ("split", [0, 0, T5_HEADS, T5_SIZE]), ("c", np.float32(0.3)))
    return helper.make_graph(nodes, "encoder", inputs, outputs, inits)


def whisper_decoder(width=1, hidden=False):
    """The decoder: T5's without encoder_attention_mask, by default without
    encoder_hidden_states either (onnxruntime gives that input no values)."""
    return t5_decoder(hidden=hidden, width=width, mask=False)


ENCODER, DECODER, WHOLE = whisper_encoder(), whisper_decoder(), whisper_decoder(width="w")


def attrs(eos=6, pad=5, **more):
    return {"encoder": body_of(ENCODER), "decoder": body_of(DECODER), "eos_token_id": eos,
            "pad_token_id": pad, "decoder_start_token_id": 0, "model_type": 2, **more}


def i32(v):
    return np.array(v, np.int32)


FEATS, F = ("f32", "[b, m, f]"), ("f32", "[]")
VALUES = [i32([9]), i32(1), i32(3), i32(2), F]  # max_length, min_length, beams, returns, lp


def spec(inputs, n_outputs=3, **more):
    return {"inputs": inputs, "attrs": {k: v for k, v in attrs(**more).items() if v is not None},
            "n_outputs": n_outputs}


CASES = {
    "constant values: the sizes": (
        spec([FEATS] + VALUES), {"y0": "[b, 2, 9]", "y1": "[b, 2]", "y2": "[8, b, 3, 7]",
                                 "dtypes": {"y0": "i32", "y1": "f32", "y2": "f32"}}),
    "decoder_input_ids: the start's length": (
        spec([FEATS] + VALUES + [None] * 4 + [("i32", "[b, l]")]),
        {"y0": "[b, 2, 9]", "y2": "[9 - l, b, 3, 7]", "x10": "[b, l]"}),
    "values graph inputs: fresh sizes": (
        spec([FEATS, ("i32", "[1]"), ("i32", "[]"), ("i32", "[]"), ("i32", "[1]"), F]),
        {"y0": "[b, _1, _2]", "y1": "[b, _1]", "y2": "[_3, b, _4, 7]"}),
    "the masks": (spec([FEATS] + VALUES + [F, ("i32", "[v]"), ("i32", "[p, q]"),
                                           ("i32", "[a, c, d]")]),
                  {"x7": "[7]", "x8": "[b, 7]", "x9": "[a, c, d]"}),
    "the vocab_size attribute": (spec([FEATS] + VALUES, vocab_size=5),
                                 {"y2": "[8, b, 3, 5]"}),
    "float16 scores": (spec([FEATS] + VALUES[:4] + [("f16", "[1]")]),
                       {"dtypes": {"y1": "f16", "y2": "f16"}}),
    "five outputs: the last two left open": (spec([FEATS] + VALUES, 5), {"y0": "[b, 2, 9]"}),
    "six outputs": (spec([FEATS] + VALUES, 6), "error"),
    "int32 features": (spec([("i32", "[b, m, f]")] + VALUES), "error"),
    "features of rank 2": (spec([("f32", "[b, m]")] + VALUES), "error"),
    "an attention_mask of rank 2": (spec([FEATS] + VALUES + [None] * 3 + [("i32", "[b, m]")]),
                                    "error"),
    "max_length not above decoder_input_ids' width": (
        spec([FEATS] + VALUES + [None] * 4 + [("i32", "[b, 9]")]), "error"),
    "max_length 1": (spec([FEATS, i32(1)] + VALUES[1:]), "error"),
    "max_length above 4096": (spec([FEATS, i32(4097)] + VALUES[1:]), "error"),
    "more returns than beams": (spec([FEATS] + VALUES[:2] + [i32(2), i32(3), F]), "error"),
    "no min_length": (spec([FEATS, VALUES[0], None] + VALUES[2:]), "error"),
    "no start": (spec([FEATS] + VALUES, decoder_start_token_id=-1), "error"),
    "model_type 1": (spec([FEATS] + VALUES, model_type=1), "error"),
    "no encoder": (spec([FEATS] + VALUES, encoder=None), "error"),
    "a vocab_mask of another width": (spec([FEATS] + VALUES + [None, ("i32", "[6]")]),
                                      "error"),
}

test_case = case_test("WhisperBeamSearch", CASES, domain=MS)
def check(arrays, more, n_outputs):
    """check_search of WhisperBeamSearch, its encoder and decoder GraphProtos."""
    proto = {**attrs(**more), "encoder": ENCODER, "decoder": more.get("decoder", DECODER)}
    return check_search("WhisperBeamSearch", arrays, proto, n_outputs)


def feats(b, frames, seed=0):
    return np.random.default_rng(seed).standard_normal((b, MELS, frames)).astype(np.float32)


ORT_CASES = {
    "3 beams, 2 returned, every output": (
        [feats(2, 4), i32(6), i32(1), i32(3), i32(2), np.float32(1.0)], {}),
    "decoder_input_ids, a temperature": (
        [feats(2, 3), i32(7), i32(0), i32(3), i32(3), np.float32(0.5)] + [None] * 4 +
        [i32([[0, 1], [0, 2]])] + [None] * 3 + [np.float32(0.7)], {"early_stopping": 1}),
    "min_length, the masks, no_repeat_ngram": (
        [feats(2, 2), i32(8), i32(4), i32(4), i32(2), np.float32(-0.5), np.float32(1.3),
         i32([1, 1, 1, 1, 0, 1, 1]), i32([[1, 0, 1, 1, 1, 1, 1], [1, 1, 1, 0, 1, 1, 1]])],
        {"no_repeat_ngram_size": 2}),
    "no frames, one beam": ([feats(3, 0), i32(5), i32(0), i32(1), i32(1), np.float32(1.0)],
                            {}),
    "a decoder reading the whole sequences": (
        [feats(2, 4), i32(6), i32(1), i32(3), i32(2), np.float32(1.0)] + [None] * 4 +
        [i32([[4, 1], [4, 2]])], {"decoder": WHOLE}),
}


@pytest.mark.parametrize("name", ORT_CASES)
def test_kernel_and_shapes_match_onnxruntime(name):
    arrays, more = ORT_CASES[name]
    assert check(arrays, more, 3) is not None


def test_what_the_kernel_refuses():
    """onnxruntime hands encoder_hidden_states no values, crashes on an empty batch, runs
    the decoder on unset inputs where max_length is the start's length + 1."""
    with pytest.raises(KernelError, match="encoder_hidden_states"):
        load_kernel("WhisperBeamSearch")(
            {**attrs(), "decoder": body_of(whisper_decoder(hidden=True))},
            domain=MS)
    kernel = load_kernel("WhisperBeamSearch")(attrs(), n_outputs=3, domain=MS)
    for arrays in ([feats(0, 2), i32(4)], [feats(1, 2), i32(2)]):
        with pytest.raises(KernelError, match="not supported"):
            kernel(*arrays, i32(0), i32(2), i32(1), np.float32(1.0))


def test_a_whole_model_imports_solves_and_runs(tmp_path):
    first = helper.make_tensor_value_info("input_features", TP.FLOAT, ["batch", MELS, "frames"])
    model = search_model("WhisperBeamSearch", first, search_values(7, 1, 3, 2), encoder=ENCODER,
                         decoder=DECODER, eos_token_id=6, pad_token_id=5,
                         decoder_start_token_id=0, model_type=2)
    check_whole_model(model, tmp_path / "whisper.onnx", {"input_features": feats(2, 5)},
                      ["[batch, 2, 7]", "[batch, 2]", "[6, batch, 3, 7]"])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.sampled_from([1, 1, 2, 3]),
       frames=st.integers(0, 4), start=st.integers(0, 3), beams=st.integers(1, 4),
       extra=st.integers(-1, 1), grow=st.sampled_from([0, 2, 3, 5, 6]),
       lp=st.sampled_from([1.0, 0.5, -0.7]), early=st.booleans(),
       n_outputs=st.integers(1, 3), options=st.integers(0, 63), whole=st.booleans())
def test_matches_onnxruntime(seed, b, frames, start, beams, extra, grow, lp, early,
                             n_outputs, options, whole):
    """start: decoder_input_ids' width (0: none, decoder_start_token_id); grow: max_length
    minus the start's length (0: rejected; 1 not drawn: onnxruntime runs the decoder on
    unset inputs); extra: num_return_sequences above num_beams where positive (rejected);
    options, bit by bit: a repetition penalty, a vocab_mask, a prefix_vocab_mask, a
    logits_processor of 0, no_repeat_ngram_size, a temperature; whole: the decoder reads
    the whole sequences."""
    rng = np.random.default_rng(seed)
    returns = max(1, min(beams + extra, int(rng.integers(1, beams + 1)) + max(extra, 0)))
    arrays = [feats(b, frames, seed), i32(max(start, 1) + grow), i32(int(rng.integers(0, 5))),
              i32(beams), i32(returns), np.float32(lp),
              np.float32(rng.choice([0.8, 1.3])) if options & 1 else None,
              (rng.random(VOCAB) < 0.8).astype(np.int32) if options & 2 else None,
              (rng.random((b, VOCAB)) < 0.7).astype(np.int32) if options & 4 else None, None,
              rng.integers(0, VOCAB, (b, start)).astype(np.int32) if start else None,
              i32(0) if options & 8 else None, None, None,
              np.float32(rng.choice([0.5, 2.0])) if options & 32 else None]
    while arrays[-1] is None:
        arrays.pop()
    more = {"eos": int(rng.integers(0, VOCAB)), "pad": int(rng.integers(0, VOCAB)),
            "early_stopping": int(early), "no_repeat_ngram_size": 2 if options & 16 else 0,
            "decoder_start_token_id": int(rng.integers(0, VOCAB)),
            "decoder": WHOLE if whole else DECODER}
    got = check(arrays, more, n_outputs)
    assert (got is None) == (grow <= 0 or returns > beams)
