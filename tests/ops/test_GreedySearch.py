"""GreedySearch (com.microsoft): rules on data cases (the width waits for max_length's
value), a whole ONNX model with its decoder subgraph, and the kernel against onnxruntime
on a tiny GPT-2 style decoder; the tiny T5 style encoder and decoder BeamSearch's tests run,
which onnxruntime's GreedySearch refuses (model_type 1)."""

import numpy as np
import pytest
from onnx import TensorProto as TP, helper, numpy_helper

from shape_logic.kernels import load_kernel
from shape_logic.onnx_bodies import body_dict
from tests.contrib_ops import check_contrib_case, infer_contrib, ort_contrib

VOCAB, HEADS, SIZE = 7, 2, 3


def gpt2_decoder(vocab=VOCAB, heads=HEADS, size=SIZE):
    """A one-layer GPT-2 style decoder as convert_generation.py's GreedySearch and BeamSearch
    run it: (input_ids, position_ids, attention_mask, past_0) -> (logits, present_0); its
    logits are an embedding of the ids plus a term of the whole present (so of the past)."""
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
        n("Sin", ["hist3"], ["hist4"]), n("Add", ["emb", "hist4"], ["logits"]),
    ]
    inits = [numpy_helper.from_array(w, "W"), i64("ax", 0, 2, 4), i64("one", 1),
             i64("k0124", 0, 1, 2, 4), i64("perm", 0, 1, 2, 4, 3), i64("red", 0, 2, 3, 4),
             numpy_helper.from_array(np.array(0.37, np.float32), "c"), i64("ax12", 1, 2)]
    return helper.make_graph(nodes, "decoder", inputs, outputs, inits)


T5_HEADS, T5_SIZE = 2, 2
T5_HIDDEN = T5_HEADS * T5_SIZE


def _t5_value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def _t5_consts(*arrays):
    """Initializers: lists as int64 vectors, arrays (and NumPy scalars) as they are."""
    return [numpy_helper.from_array(np.asarray(v, np.int64 if isinstance(v, list) else None),
                                    n) for n, v in arrays]


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
        n("Reshape", ["encoder_hidden_states", "split"], ["hs4"]),
        n("Transpose", ["hs4"], ["present_key_cross_0"], perm=[0, 2, 1, 3]),
        n("Cos", ["present_key_cross_0"], ["present_value_cross_0"]),
        n("Gather", ["D", "decoder_input_ids"], ["dem"]),
        n("Reshape", ["dem", "split"], ["d4"]),
        n("Transpose", ["d4"], ["present_key_self_0"], perm=[0, 2, 1, 3]),
        n("Sin", ["present_key_self_0"], ["present_value_self_0"]),
        n("ReduceSum", ["encoder_hidden_states", "one"], ["ctx"], keepdims=1),
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


DECODER = gpt2_decoder()
BODY = body_dict(DECODER)


def attrs(eos=3, pad=5, **more):
    return {"decoder": BODY, "eos_token_id": eos, "pad_token_id": pad, **more}


def i32(v):
    return np.array(v, np.int32)


CASES = {
    "a constant max_length: the width": (
        [("i32", "[b, s]"), i32([9])], attrs(), {"y0": "[b, 9]", "x0": "[b, s]"}),
    "a scalar max_length": ([("i32", "[2, 3]"), i32(9)], attrs(), {"y0": "[2, 9]"}),
    "max_length a graph input: a fresh width": (
        [("i32", "[b, s]"), ("i32", "[1]")], attrs(), {"y0": "[b, _]"}),
    "all the optional inputs": (
        [("i32", "[b, s]"), i32([9]), i32([2]), np.array([1.2], np.float32),
         ("i32", f"[{VOCAB}]"), ("i32", f"[b, {VOCAB}]"), ("i32", "[b, s]")], attrs(),
        {"y0": "[b, 9]"}),
    "max_length not above the prompt": ([("i32", "[2, 9]"), i32([9])], attrs(), "error"),
    "int64 ids": ([("i64", "[b, s]"), i32([9])], attrs(), "error"),
    "ids not a matrix": ([("i32", "[s]"), i32([9])], attrs(), "error"),
    "no eos_token_id": ([("i32", "[b, s]"), i32([9])], {"decoder": BODY, "pad_token_id": 0},
                        "error"),
    # onnxruntime's GreedySearch::Init enforces model_type 0 (its schema allows T5's 1)
    "model_type 1": ([("i32", "[b, s]"), i32([9])], attrs(model_type=1, encoder=BODY),
                     "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, a, want = CASES[name]
    check_contrib_case("GreedySearch", inputs, a, 1, want)


def greedy_model():
    node = helper.make_node("GreedySearch", ["input_ids", "max_length"], ["sequences"],
                            domain="com.microsoft", decoder=DECODER, eos_token_id=3,
                            pad_token_id=5, model_type=0)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("input_ids", TP.INT32, ["batch", "seq"])],
        [helper.make_empty_tensor_value_info("sequences")],
        [numpy_helper.from_array(i32([12]), "max_length")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                   helper.make_opsetid("com.microsoft", 1)])


def test_a_whole_model_with_its_decoder_subgraph_imports_and_solves(tmp_path):
    import onnx

    import shape_logic

    onnx.save(greedy_model(), tmp_path / "greedy.onnx")
    sol = shape_logic.solve(str(tmp_path / "greedy.onnx"))
    assert sol.status == "ok" and sol.shape("sequences") == "[batch, 12]"
    # the decoder's declared inputs are kept, their names as `?` (the body's batch is no
    # graph's symbol): the importer's graph object, as the kernel reads it
    assert sol.dtype("GreedySearch_0/decoder/input_ids") == "i32"
    assert sol.dims("GreedySearch_0/decoder/past_0")[2::2] == (2, 3)


def test_a_whole_model_runs_as_onnxruntime_runs_it(tmp_path):
    """Imported, the decoder keeps its past's declared heads and head size, which the
    kernel needs for the first, empty cache; through the JSON graph `import` writes too."""
    import json
    import subprocess
    import sys

    import onnx
    import onnxruntime as ort

    import shape_logic

    model = greedy_model()
    onnx.save(model, tmp_path / "greedy.onnx")
    ids = i32([[1, 2, 3], [4, 2, 1]])
    want = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(None, {"input_ids": ids})[0]
    out = shape_logic.run(str(tmp_path / "greedy.onnx"), {"input_ids": ids})
    np.testing.assert_array_equal(out["sequences"], want)
    assert out.data_dependent == {}  # (the decoder's own names are its kernel's)
    subprocess.run([sys.executable, "-m", "shape_logic.cli", "import",
                    str(tmp_path / "greedy.onnx"), "-o", str(tmp_path / "greedy.json")],
                   check=True)
    body = json.loads((tmp_path / "greedy.json").read_text())["nodes"][0]["attrs"]["decoder"]
    assert body["inputs"]["past_0"] == {"dtype": "f32", "shape": [2, "?", 2, "?", 3]}
    again = shape_logic.run(str(tmp_path / "greedy.json"), {"input_ids": ids})
    np.testing.assert_array_equal(again["sequences"], want)


ORT_CASES = {
    "no row meets eos": ([i32([[1, 2, 3], [4, 2, 1]]), i32([7])], {}),
    "rows meet eos early, one runs on": ([i32([[3, 3], [2, 4], [1, 1]]), i32([7])],
                                         {"eos_token_id": 0}),
    "min_length holds eos back": ([i32([[3, 3], [2, 4], [1, 1]]), i32([6]), i32([4])],
                                  {"eos_token_id": 0}),
    "a vocabulary mask": ([i32([[1, 2, 3], [4, 2, 1]]), i32([7]), None, None,
                           i32([0, 1, 1, 1, 1, 1, 1])], {}),
    "a prefix vocabulary mask": ([i32([[1, 2, 3], [4, 2, 1]]), i32([7]), None, None, None,
                                  i32([[1, 0, 1, 1, 1, 1, 1], [1, 1, 0, 1, 0, 1, 1]])], {}),
    "pads in the prompt": ([i32([[1, 2, 5], [5, 2, 1]]), i32([8])], {}),
    "batch 1, a longer run": ([i32([[6, 1]]), i32([11])], {"eos_token_id": 4}),
}



def test_a_finished_row_feeds_its_pad_to_the_decoder_as_onnxruntime_does():
    """onnxruntime feeds pad_token_id, not the token drawn, for a row that has finished: a
    pad outside the decoder's vocabulary then fails its Gather in both runs."""
    from shape_logic.match_cast import ExecutionError

    arrays, ours = [i32([[3, 3], [2, 4], [1, 1]]), i32([7])], attrs(eos=0, pad=50)
    with pytest.raises(Exception, match="out of"):
        ort_contrib("GreedySearch", arrays, {**ours, "decoder": DECODER})
    with pytest.raises(ExecutionError, match="out of range"):
        load_kernel("GreedySearch")({**ours, "decoder": DECODER}, domain="com.microsoft")(*arrays)

@pytest.mark.parametrize("name", ORT_CASES)
def test_kernel_and_shapes_match_onnxruntime(name):
    # (onnxruntime's node takes the GraphProto; ours the importer's graph object)
    arrays, more = ORT_CASES[name]
    ours = attrs(**more)
    want = ort_contrib("GreedySearch", arrays, {**ours, "decoder": DECODER})[0]
    got = load_kernel("GreedySearch")({**ours, "decoder": DECODER},
                                      domain="com.microsoft")(*arrays)[0]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    # the shapes: concrete, and with symbolic batch and prompt (max_length a constant)
    for ids in (("i32", list(arrays[0].shape)), ("i32", "[b, s]")):
        shapes = [ids, arrays[1]] + [None if a is None else ("i32", list(a.shape))
                                     for a in arrays[2:]]
        sol = infer_contrib("GreedySearch", shapes, ours)
        assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
        b = want.shape[0] if isinstance(ids[1], list) else "b"
        assert sol.shape("y0") == f"[{b}, {want.shape[1]}]" and sol.dtype("y0") == "i32"


def test_onnxruntime_refuses_t5_models_and_so_do_we():
    """The schema allows model_type 1 (T5, with an encoder), but onnxruntime's CPU kernel
    enforces model_type 0; so do the rules and the kernel."""
    from shape_logic.kernels.base import KernelError

    proto = attrs(encoder=t5_encoder(), decoder=t5_decoder(), model_type=1,
                  decoder_start_token_id=0)
    arrays = [i32([[1, 2, 4]]), i32([6])]
    with pytest.raises(Exception, match="model_type"):
        ort_contrib("GreedySearch", arrays, proto)
    ours = {**proto, "encoder": body_dict(proto["encoder"]),
            "decoder": body_dict(proto["decoder"])}
    assert infer_contrib("GreedySearch", [("i32", [1, 3]), arrays[1]], ours).status == "error"
    with pytest.raises(KernelError, match="only GPT-2"):
        load_kernel("GreedySearch")(proto, domain="com.microsoft")
