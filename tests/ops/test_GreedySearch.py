"""GreedySearch (com.microsoft): rules on data cases (the width waits for max_length's
value), a whole ONNX model with its decoder subgraph, and the kernel against onnxruntime
on the tiny GPT-2 style decoders of generation_models.py (one reading its attention mask
and positions), with every logits processor, by cases and a property test; the tiny T5
style encoder and decoder BeamSearch's tests run, which onnxruntime's GreedySearch refuses
(model_type 1)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto as TP, helper, numpy_helper

from shape_logic.kernels import load_kernel
from shape_logic.onnx_bodies import body_dict
from tests.contrib_ops import MS, check_contrib_case, infer_contrib, ort_contrib
from tests.ops.generation_models import VOCAB, gpt2_decoder, t5_decoder, t5_encoder

DECODER = gpt2_decoder()
BODY = body_dict(DECODER)
MASKED = gpt2_decoder(masked=True)  # (reads the attention mask and the positions)
MASKED_BODY = body_dict(MASKED)


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
    "an attention_mask of another shape": (
        [("i32", "[2, 3]"), i32([9])] + [None] * 4 + [("i32", "[2, 4]")], attrs(), "error"),
    "masks of two vocabularies": ([("i32", "[b, s]"), i32([9]), None, None, ("i32", "[7]"),
                                   ("i32", "[b, 6]")], attrs(), "error"),
    "a prefix mask of another batch": ([("i32", "[2, s]"), i32([9]), None, None, None,
                                        ("i32", "[3, 7]")], attrs(), "error"),
    "a vocab_mask matrix": ([("i32", "[b, s]"), i32([9]), None, None, ("i32", "[1, 7]")],
                            attrs(), "error"),
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
    # a decoder reading its mask and positions: the attention_mask input is its first mask
    # (pads or not), the positions count the prompt's tokens other than pad all the same
    "an attention mask": ([i32([[1, 2, 5], [5, 2, 1]]), i32([8])] + [None] * 4 +
                          [i32([[0, 1, 1], [1, 0, 1]])], {"masked": True}),
    "an attention mask of 0s and 2s": ([i32([[1, 2, 5], [5, 2, 1]]), i32([8])] + [None] * 4 +
                                       [i32([[2, 0, 0], [0, 2, 1]])], {"masked": True}),
    "no mask, the pads masked": ([i32([[1, 2, 5], [5, 5, 1]]), i32([8])], {"masked": True}),
    "a repetition penalty": ([i32([[1, 2, 5], [5, 2, 1]]), i32([8]), None,
                              np.array([1.5], np.float32)], {}),
    "a repetition penalty below 1": ([i32([[1, 2, 4], [6, 2, 1]]), i32([8]), None,
                                      np.array(0.6, np.float32)], {"masked": True}),
    "no repeated bigrams": ([i32([[1, 2, 5], [5, 2, 1]]), i32([12])],
                           {"no_repeat_ngram_size": 2}),
    "no repeated 4-grams": ([i32([[1, 2, 5], [5, 2, 1]]), i32([12])],
                            {"no_repeat_ngram_size": 4, "masked": True}),
    "no_repeat_ngram_size above the length": ([i32([[1, 2], [4, 1]]), i32([6])],
                                              {"no_repeat_ngram_size": 9}),
    "every processor": ([i32([[1, 2, 5], [5, 2, 1]]), i32([10]), i32([6]),
                         np.array([1.3], np.float32), i32([1, 1, 0, 1, 1, 1, 1]),
                         i32([[1, 0, 1, 1, 1, 1, 1]] * 2), i32([[0, 1, 1], [1, 0, 1]])],
                        {"no_repeat_ngram_size": 2, "masked": True}),
    "vocab_size: the logits read at that stride": ([i32([[1, 2, 3], [4, 2, 1]]), i32([8])],
                                                   {"vocab_size": 5}),
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
    more = dict(more)
    proto = MASKED if more.pop("masked", False) else DECODER
    ours = attrs(**more)
    want = ort_contrib("GreedySearch", arrays, {**ours, "decoder": proto})[0]
    got = load_kernel("GreedySearch")({**ours, "decoder": proto},
                                      domain="com.microsoft")(*arrays)[0]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    # the shapes: concrete, and with symbolic batch and prompt (max_length a constant)
    for symbolic in (False, True):
        sol = infer_contrib("GreedySearch", shapes_of(arrays, symbolic), ours)
        assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
        b = "b" if symbolic else want.shape[0]
        assert sol.shape("y0") == f"[{b}, {want.shape[1]}]" and sol.dtype("y0") == "i32"


def shapes_of(arrays, symbolic=False):
    """The inputs as the rules see them: max_length a constant (its value), the others
    dtypes and shapes; `symbolic`: the batch b, the prompt's length s."""
    out = []
    for k, a in enumerate(arrays):
        if a is None or k == 1:
            out.append(a)
            continue
        shape = list(np.shape(a))
        if symbolic and k in (0, 5, 6):  # (ids, prefix mask, attention mask)
            shape = ["b", "s" if k != 5 else shape[1]][:len(shape)]
        dt = "f32" if a.dtype == np.float32 else "i32"
        out.append((dt, "[" + ", ".join(map(str, shape)) + "]"))
    return out


def check(arrays, more, masked=False):
    """onnxruntime's sequences against our kernel's and our rules' shape, or both rules and
    kernel rejecting what onnxruntime rejects. Where every row has met eos before
    max_length onnxruntime leaves the rest unwritten: the comparison stops there (with
    pad_token_id eos_token_id, a column of pads). Returns onnxruntime's (None: rejected)."""
    from shape_logic.kernels.base import KernelError

    proto = attrs(**more, decoder=MASKED if masked else DECODER)
    sol = infer_contrib("GreedySearch", shapes_of(arrays),
                        attrs(**more, decoder=MASKED_BODY if masked else BODY))
    try:
        want = ort_contrib("GreedySearch", arrays, proto)[0]
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        assert sol.status == "error", f"onnxruntime rejects ({str(e)[-300:]}), the rules accept"
        with pytest.raises(KernelError):
            load_kernel("GreedySearch")(proto, domain=MS)(*arrays)
        return None
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y0") == f"[{want.shape[0]}, {want.shape[1]}]" and sol.dtype("y0") == "i32"
    got = load_kernel("GreedySearch")(proto, domain=MS)(*arrays)[0]
    assert got.dtype == want.dtype and got.shape == want.shape
    s, pad = arrays[0].shape[1], proto["pad_token_id"]
    ended = (want[:, s:] == pad).all(0) if pad == proto["eos_token_id"] else [False]
    stop = s + int(np.argmax(ended)) + 1 if np.any(ended) else want.shape[1]
    np.testing.assert_array_equal(got[:, :stop], want[:, :stop])
    return want


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.integers(1, 3), s=st.integers(1, 4),
       grow=st.integers(0, 6), ends=st.booleans(), options=st.integers(0, 63))
def test_matches_onnxruntime(seed, b, s, grow, ends, options):
    """Random prompts with pads; grow: max_length - the prompt's length (0: rejected); ends:
    eos a token (pad_token_id the same), else -1 (no row ends; pad a random token);
    options, bit by bit: a repetition penalty, an attention mask, no_repeat_ngram_size,
    a vocab_mask, a prefix_vocab_mask and min_length, the decoder reading its mask."""
    rng = np.random.default_rng(seed)
    eos = int(rng.integers(0, VOCAB)) if ends else -1
    pad = eos if ends else int(rng.integers(0, VOCAB))
    ids = rng.integers(0, VOCAB, (b, s)).astype(np.int32)
    ids[rng.random((b, s)) < 0.3] = pad
    arrays = [ids, i32([s + grow]),
              i32([int(rng.integers(0, s + grow + 2))]) if options & 16 and ends else None,
              np.float32(rng.choice([0.6, 1.4, 2.5])) if options & 1 else None,
              (rng.random(VOCAB) < 0.8).astype(np.int32) if options & 8 else None,
              (rng.random((b, VOCAB)) < 0.7).astype(np.int32) if options & 16 else None,
              (rng.random((b, s)) < 0.7).astype(np.int32) if options & 2 else None]
    while arrays[-1] is None:
        arrays.pop()
    more = {"eos": eos, "pad": pad,
            "no_repeat_ngram_size": int(rng.integers(1, 5)) if options & 4 else 0}
    assert (check(arrays, more, masked=bool(options & 32)) is None) == (grow == 0)


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
