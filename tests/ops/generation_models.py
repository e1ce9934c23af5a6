"""Tiny generation models for the tests of onnxruntime's search operators (GreedySearch,
Sampling, BeamSearch, WhisperBeamSearch): a one-layer GPT-2 style decoder (model_type 0,
optionally reading its attention mask and positions) and a one-layer T5 style encoder and
decoder (model_type 1), as convert_generation.py's subgraphs take and give their inputs and
outputs."""

import numpy as np
from onnx import TensorProto as TP, helper, numpy_helper

VOCAB, HEADS, SIZE = 7, 2, 3


def gpt2_decoder(vocab=VOCAB, heads=HEADS, size=SIZE, masked=False):
    """A one-layer GPT-2 style decoder as convert_generation.py's GreedySearch and BeamSearch
    run it: (input_ids, position_ids, attention_mask, past_0) -> (logits, present_0); its
    logits are an embedding of the ids plus a term of the whole present (so of the past).
    `masked`: plus sin(k * (the mask's cumulative sum's sum * 0.29 + the position * 0.53)),
    k a vector over the vocabulary (so the mask, where its ones are, and the positions
    change the choice)."""
    w = np.random.default_rng(0).standard_normal((vocab, vocab)).astype(np.float32)
    i64 = lambda name, *v: numpy_helper.from_array(np.array(v, np.int64), name)  # noqa: E731
    inputs = [helper.make_tensor_value_info("input_ids", TP.INT32, ["b", "s"]),
              helper.make_tensor_value_info("position_ids", TP.INT32, ["b", "s"]),
              helper.make_tensor_value_info("attention_mask", TP.INT32, ["b", "t"]),
              helper.make_tensor_value_info("past_0", TP.FLOAT, [2, "b", heads, "p", size])]
    outputs = [helper.make_tensor_value_info("logits", TP.FLOAT, ["b", "s", vocab]),
               helper.make_tensor_value_info("present_0", TP.FLOAT,
                                             [2, "b", heads, "t", size])]
    n = helper.make_node
    nodes = [
        n("Gather", ["W", "input_ids"], ["emb"]),
        n("Cast", ["input_ids"], ["idf"], to=TP.FLOAT),
        n("Unsqueeze", ["idf", "ax"], ["idu"]),
        n("Shape", ["past_0"], ["ps"]), n("Shape", ["input_ids"], ["is"]),
        n("Gather", ["is", "one"], ["sl"]), n("Gather", ["ps", "k0124"], ["p0124"]),
        n("Concat", ["p0124", "sl"], ["kvu"], axis=0), n("Gather", ["kvu", "perm"], ["kvs"]),
        n("Expand", ["idu", "kvs"], ["kv"]),
        n("Concat", ["past_0", "kv"], ["present_0"], axis=3),
        n("ReduceSum", ["present_0", "red"], ["hist"], keepdims=0),
        n("Mul", ["hist", "c"], ["hist2"]), n("Unsqueeze", ["hist2", "ax12"], ["hist3"]),
        n("Sin", ["hist3"], ["hist4"]),
        n("Add", ["emb", "hist4"], ["logits" if not masked else "logits0"]),
    ]
    if masked:
        nodes += [
            n("Cast", ["attention_mask"], ["mf"], to=TP.FLOAT),
            n("CumSum", ["mf", "one"], ["mc"]), n("ReduceSum", ["mc", "one"], ["ms"]),
            n("Mul", ["ms", "c29"], ["ms2"]), n("Cast", ["position_ids"], ["pf"], to=TP.FLOAT),
            n("Mul", ["pf", "c53"], ["pf2"]), n("Add", ["pf2", "ms2"], ["z"]),
            n("Unsqueeze", ["z", "two"], ["z3"]), n("Mul", ["z3", "k"], ["zk"]),
            n("Sin", ["zk"], ["sz"]), n("Add", ["logits0", "sz"], ["logits"])]
    inits_masked = [numpy_helper.from_array(np.float32(0.29), "c29"),
                    numpy_helper.from_array(np.float32(0.53), "c53"), i64("two", 2),
                    numpy_helper.from_array(np.linspace(0.7, 2.9, vocab).astype(np.float32),
                                            "k")]
    inits = [numpy_helper.from_array(w, "W"), i64("ax", 0, 2, 4), i64("one", 1),
             i64("k0124", 0, 1, 2, 4), i64("perm", 0, 1, 2, 4, 3), i64("red", 0, 2, 3, 4),
             numpy_helper.from_array(np.array(0.37, np.float32), "c"), i64("ax12", 1, 2)]
    inits += inits_masked if masked else []
    return helper.make_graph(nodes, "decoder", inputs, outputs, inits)


T5_HEADS, T5_SIZE = 2, 2
T5_HIDDEN = T5_HEADS * T5_SIZE


def _t5_value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def _t5_consts(*arrays):
    """Initializers: lists as int64 vectors, arrays (and NumPy scalars) as they are."""
    return [numpy_helper.from_array(np.asarray(v, np.int64 if isinstance(v, list) else None),
                                    n) for n, v in arrays]


def encoder_presents():
    """The nodes an encoder_decoder_init (T5's, Whisper's) makes its presents and context
    with: the cross presents the heads of encoder_hidden_states (and their cosine), the
    self presents those of the decoder's embedded ids `dem` (a Gather of D; and their
    sine), `ctx` the hidden states summed over axis `one`. Reads the initializers D,
    `split` ([0, 0, heads, size]) and `one` ([1])."""
    n = helper.make_node
    return [n("Reshape", ["encoder_hidden_states", "split"], ["hs4"]),
            n("Transpose", ["hs4"], ["present_key_cross_0"], perm=[0, 2, 1, 3]),
            n("Cos", ["present_key_cross_0"], ["present_value_cross_0"]),
            n("Gather", ["D", "decoder_input_ids"], ["dem"]),
            n("Reshape", ["dem", "split"], ["d4"]),
            n("Transpose", ["d4"], ["present_key_self_0"], perm=[0, 2, 1, 3]),
            n("Sin", ["present_key_self_0"], ["present_value_self_0"]),
            n("ReduceSum", ["encoder_hidden_states", "one"], ["ctx"], keepdims=1)]


def t5_encoder(vocab=VOCAB):
    """convert_generation.py's T5 encoder_decoder_init, one layer: (encoder_input_ids,
    encoder_attention_mask, decoder_input_ids) -> (logits, encoder_hidden_states,
    present_key_self_0, present_value_self_0, present_key_cross_0, present_value_cross_0):
    hidden states the masked embedding, the cross presents its heads, the self presents
    the start token's, the logits of the start token and the summed hidden states."""
    rng = np.random.default_rng(1)
    e, d, w = (rng.standard_normal(s).astype(np.float32) for s in
               ((vocab, T5_HIDDEN), (vocab, T5_HIDDEN), (T5_HIDDEN, vocab)))
    n, i32_, f32 = helper.make_node, TP.INT32, TP.FLOAT
    kv = lambda name, s: _t5_value(name, f32, ["b", T5_HEADS, s, T5_SIZE])  # noqa: E731
    inputs = [_t5_value("encoder_input_ids", i32_, ["b", "s"]),
              _t5_value("encoder_attention_mask", i32_, ["b", "s"]),
              _t5_value("decoder_input_ids", i32_, ["b", 1])]
    outputs = [_t5_value("logits", f32, ["b", 1, vocab]),
               _t5_value("encoder_hidden_states", f32, ["b", "s", T5_HIDDEN]),
               kv("present_key_self_0", 1), kv("present_value_self_0", 1),
               kv("present_key_cross_0", "s"), kv("present_value_cross_0", "s")]
    nodes = [
        n("Gather", ["E", "encoder_input_ids"], ["emb"]),
        n("Cast", ["encoder_attention_mask"], ["mf"], to=f32),
        n("Unsqueeze", ["mf", "two"], ["mu"]),
        n("Mul", ["emb", "mu"], ["encoder_hidden_states"]),
        *encoder_presents(),
        n("Mul", ["ctx", "c"], ["ctx2"]), n("Add", ["dem", "ctx2"], ["z"]),
        n("Tanh", ["z"], ["tz"]), n("MatMul", ["tz", "W"], ["logits"])]
    inits = _t5_consts(("E", e), ("D", d), ("W", w), ("two", [2]), ("one", [1]),
                       ("split", [0, 0, T5_HEADS, T5_SIZE]), ("c", np.float32(0.3)))
    return helper.make_graph(nodes, "encoder", inputs, outputs, inits)


def t5_decoder(vocab=VOCAB, hidden=True, width=1, mask=True):
    """The T5 decoder, one layer: (input_ids [b, width], encoder_attention_mask,
    encoder_hidden_states (where `hidden`), past_key_self_0, past_value_self_0,
    past_key_cross_0, past_value_cross_0) -> (logits, present_key_self_0,
    present_value_self_0): the mean of the ids' embeddings (the token, or the sequence
    where width is not 1) appended to the self pasts; the logits of it plus the product of
    the self presents' sums (so the order of the history counts) plus the cross pasts' and
    the mask's sums (where `mask`: Whisper's decoder has none), plus the hidden states'."""
    rng = np.random.default_rng(2)
    d, w = (rng.standard_normal(s).astype(np.float32) for s in
            ((vocab, T5_HIDDEN), (T5_HIDDEN, vocab)))
    n, f32 = helper.make_node, TP.FLOAT
    kv = lambda name, s: _t5_value(name, f32, ["b", T5_HEADS, s, T5_SIZE])  # noqa: E731
    inputs = [_t5_value("input_ids", TP.INT32, ["b", width])]
    inputs += [_t5_value("encoder_attention_mask", TP.INT32, ["b", "s"])] * mask
    inputs += [_t5_value("encoder_hidden_states", f32, ["b", "s", T5_HIDDEN])] * hidden
    inputs += [kv("past_key_self_0", "p"), kv("past_value_self_0", "p"),
               kv("past_key_cross_0", "s"), kv("past_value_cross_0", "s")]
    outputs = [_t5_value("logits", f32, ["b", 1, vocab]),
               kv("present_key_self_0", "t"), kv("present_value_self_0", "t")]
    nodes = [
        n("Gather", ["D", "input_ids"], ["tok"]),
        n("ReduceMean", ["tok", "one"], ["tok1"], keepdims=1),
        n("Reshape", ["tok1", "split"], ["t4"]),
        n("Transpose", ["t4"], ["kn"], perm=[0, 2, 1, 3]),
        n("Concat", ["past_key_self_0", "kn"], ["present_key_self_0"], axis=2),
        n("Sin", ["kn"], ["vn"]),
        n("Concat", ["past_value_self_0", "vn"], ["present_value_self_0"], axis=2),
        n("ReduceSum", ["present_key_self_0", "two"], ["hk"], keepdims=0),
        n("ReduceSum", ["present_value_self_0", "two"], ["hv"], keepdims=0),
        n("Mul", ["hk", "hv"], ["hkv"]),
        n("ReduceSum", ["past_key_cross_0", "two"], ["ck"], keepdims=0),
        n("ReduceSum", ["past_value_cross_0", "two"], ["cv"], keepdims=0),
        n("Add", ["ck", "cv"], ["c2"]), n("Add", ["hkv", "c2"], ["s3"]),
        n("Reshape", ["s3", "flat"], ["s1" if mask else "s1m"])]
    nodes += [n("Cast", ["encoder_attention_mask"], ["mf"], to=f32),
              n("ReduceSum", ["mf", "one"], ["ml"], keepdims=1),
              n("Unsqueeze", ["ml", "two"], ["ml3"]), n("Mul", ["ml3", "c"], ["mlc"]),
              n("Add", ["s1", "mlc"], ["s1m"])] * mask
    nodes += [
        n("Mul", ["s1m", "c"], ["s1c"]),
        n("Add", ["tok1", "s1c"], ["z"]), n("Sin", ["z"], ["sz"]),
        n("MatMul", ["sz", "W"], ["logits" if not hidden else "l0"])]
    if hidden:  # (ReduceSum: 0 over an empty prompt, as onnxruntime's)
        nodes += [n("ReduceSum", ["encoder_hidden_states", "one"], ["hm"], keepdims=1),
                  n("Tanh", ["hm"], ["th"]), n("MatMul", ["th", "W"], ["lh"]),
                  n("Add", ["l0", "lh"], ["logits"])]
    inits = _t5_consts(("D", d), ("W", w), ("one", [1]), ("two", [2]),
                       ("split", [0, 0, T5_HEADS, T5_SIZE]), ("flat", [0, 1, T5_HIDDEN]),
                       ("c", np.float32(0.41)))
    return helper.make_graph(nodes, "decoder", inputs, outputs, inits)
