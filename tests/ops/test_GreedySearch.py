"""GreedySearch (com.microsoft): rules on data cases (the width waits for max_length's
value), a whole ONNX model with its decoder subgraph, and the kernel against onnxruntime
on a tiny GPT-2 style decoder."""

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
