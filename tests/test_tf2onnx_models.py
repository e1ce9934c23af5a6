"""Models as tf2onnx 1.17 converted them from TensorFlow 2.21 and Keras 3 (opset 17, random
weights: bench/tf_export.py wrote tests/models/tf2onnx/, each beside the sizes it runs at).
Every dim we state is onnxruntime's at both sizes, and what tf2onnx's conversions compute
with is followed: int32 sizes, strided slices clamped in float32, dynamic pads, einsum's
ReduceProd of sizes, Keras RNNs as Loops whose state keeps its shape (induction). Our
executor computes what onnxruntime does."""
import json
from pathlib import Path

import numpy as np
import onnx
import pytest

import shape_logic
from tests.onnx_graphs import assert_same_outputs, open_tensors_checking_the_rest, random_feeds

HERE = Path(__file__).parent / "models" / "tf2onnx"
R = np.random.default_rng(0)


def model_and_feeds(name: str):
    model = onnx.load(HERE / f"{name}.onnx")
    return model, random_feeds(model, json.loads((HERE / f"{name}.json").read_text()), R)


def produced(model) -> set:
    return {t for n in model.graph.node for t in n.output if t}


# model -> the tensors left open (a dim in a name of its own), at most; what remains open
# is the data's (the RNNs' time loops are counted: Loop.lp's loop_stop)
OPEN_AT_MOST = {"transformer_encoder": 0, "unet": 0, "conv1d_audio": 0, "lstm_tagger": 0,
                "bigru_classifier": 0, "arithmetic_ops": 0, "control_ops": 2,
                "stacked_rnn": 0}


@pytest.mark.parametrize("name", sorted(OPEN_AT_MOST))
def test_every_stated_dim_is_onnxruntimes(name):
    model, feeds = model_and_feeds(name)
    sol = shape_logic.solve(model)
    assert sol.status == "ok"
    assert not [w for w in sol.warnings if w.startswith("arithmetic gave up")]
    # (tf2onnx declares the outputs with names of its own: those it keeps are open)
    inputs = {s for i in model.graph.input for d in sol.dims(i.name) or () for s in d.symbols()}
    opened = {t for t in open_tensors_checking_the_rest(model, sol, feeds) if t in produced(model)}
    named = {t for t in produced(model) if sol.dims(t) is not None
             and all(d.symbols() <= inputs for d in sol.dims(t))}
    assert len(opened | (produced(model) - named)) <= OPEN_AT_MOST[name]


@pytest.mark.parametrize("name", sorted(OPEN_AT_MOST))
def test_the_executor_computes_what_onnxruntime_does(name):
    # (the executor checks every tensor against the inferred shapes as it runs; tf2onnx's
    # nearest resize at TensorFlow's half-pixel coordinates among the kernels)
    model, feeds = model_and_feeds(name)
    assert_same_outputs(model, feeds)


def test_a_keras_lstm_state_keeps_its_shape():
    # (tf2onnx's Loop: the masked state goes through a MatMul and products broadcast
    # against the step's mask [b, 1]; loop_induction.py proves [b, 24])
    model, _ = model_and_feeds("lstm_tagger")
    sol = shape_logic.solve(model)
    loop = next(n for n in model.graph.node if n.op_type == "Loop")
    batch = str(sol.dims("tokens")[0])
    for state in loop.output[1:4]:
        assert sol.shape(state) == f"[{batch}, 24]"


def test_keras_rnns_in_a_row_count_their_steps():
    # an LSTM, a bidirectional LSTM (tf2onnx makes them ONNX LSTMs), a SimpleRNN going
    # backwards and a GRU (time loops): each loop runs T times (Loop.lp's loop_stop: `i <
    # T and t + 1 < T`) and stacks [T, b, units], which the next layer reads
    model, _ = model_and_feeds("stacked_rnn")
    sol = shape_logic.solve(model)
    batch, steps, _ = (str(d) for d in sol.dims("features"))
    loops = [n for n in model.graph.node if n.op_type == "Loop"]
    assert len(loops) == 2 and sum(n.op_type == "LSTM" for n in model.graph.node) == 2
    for loop in loops:
        stacked = sol.dims(loop.output[-1])
        assert [str(d) for d in stacked[:2]] == [steps, batch], sol.shape(loop.output[-1])


def test_tf_strided_slice_ends_are_followed():
    # img[:, :h//2*2, :w//2*2]: tf2onnx clamps the ends in float32 (Max(Cast(end), -1e9)),
    # picks 1e9 for a masked one (Where(Equal(end, 1e9) and Less(stride, 0), ..)): axis 0
    # ends at min(1e9, n), exactly, as ONNX's Slice clamps it (the others' ends are int32
    # products of sizes, not followed: Mul.lp)
    model, _ = model_and_feeds("arithmetic_ops")
    sol = shape_logic.solve(model)
    n = str(sol.dims("img")[0])
    dims = [str(d) for d in sol.dims("strided_slice_4:0")]
    assert dims[0] == f"min(1000000000, {n})" and dims[3] == "3"


def _declared_like_tf2onnx():
    """Outputs declared with names of their own, one per dim (tf2onnx's unk__N): y1 of an
    operator we have no rule for (its axes left open), y2 and y3 names for what the graph
    gives, y4 an integer for the batch, y5 a pooled size (h >= 3) declared 7."""
    from onnx import TensorProto as F
    from onnx import helper

    nodes = [helper.make_node("Mystery", ["x"], ["y1"], domain="com.example"),
             helper.make_node("Relu", ["x"], ["y2"]), helper.make_node("Sigmoid", ["x"], ["y3"]),
             helper.make_node("Tanh", ["x"], ["y4"]),
             helper.make_node("AveragePool", ["z"], ["y5"], kernel_shape=[3])]
    graph = helper.make_graph(
        nodes, "declared", [helper.make_tensor_value_info("x", F.FLOAT, ["b", 4]),
                            helper.make_tensor_value_info("z", F.FLOAT, [1, 1, "h"])],
        [helper.make_tensor_value_info(name, F.FLOAT, dims) for name, dims in (
            ("y1", ["P0", "P1"]), ("y2", ["P2", 4]), ("y3", ["P3", 4]), ("y4", [2, 4]),
            ("y5", [1, 1, 7]))])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                   helper.make_opsetid("com.example", 1)])


def test_declarations_decided_without_a_solve_after_one_that_needed_it(narrowing_solves,
                                                                       monkeypatch):
    # y4 and y5 require what the graph does not (b = 2, h = 9), so the declarations are
    # tried in turn. y1's trial is solved and kept: its names are taken; the plain y2 and
    # y3 after it are decided without a solve (one such trial made every later one
    # solved). Every trial starts under the floor the solve without declarations found.
    from shape_logic import narrowing, narrowing_obvious

    model = _declared_like_tf2onnx()
    sol = shape_logic.solve(model)
    assert sorted(sol.set_aside) == ["y4", "y5"] and sol.shape("y2") == "[b, 4]"
    (alone, _, alone_floors), trials = narrowing_solves[0], narrowing_solves[1:]
    assert alone == [] and not alone_floors
    solved = [outputs for outputs, *_ in trials]
    assert ["y1", "y2"] not in solved  # (y2's trial: it would follow y1's kept)
    assert ["y1", "y2", "y3", "y4"] in solved and ["y1", "y2", "y3", "y5"] in solved
    assert all(floors == {"h": 3} for *_, floors in trials) and sol.floors == {"h": 3}
    # the same answer with every trial solved and none under floors found before it
    monkeypatch.setattr(narrowing_obvious.Obvious, "verdict", lambda self, name: None)
    solved_with = narrowing._solved_with
    monkeypatch.setattr(narrowing, "_solved_with",
                        lambda problem, outputs, cancel=None, floors=None:
                        solved_with(problem, outputs, cancel))
    assert shape_logic.solve(model).to_json() == sol.to_json()


def test_a_keras_unet_requires_the_sizes_onnxruntime_runs_at():
    # tf2onnx computes Conv2DTranspose's 'same' size as 2*h in int32 (Mul.lp's int32
    # products) and crops it to the skip connection's: the crops' min/max sizes meet it in
    # spellings of one function of h (symbolic/periodic.py: the same, or equal on h's
    # multiples), which ran into 16,000 unsolved pairs and 28 s; the image size is
    # required to be what onnxruntime runs at, a multiple of 4
    import onnxruntime as ort

    model, _ = model_and_feeds("unet")
    sol = shape_logic.solve(model)
    assert sol.status == "ok" and not sol.warnings
    _, h, w, _ = (str(d) for d in sol.dims("image"))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for size in range(1, 14):
        try:
            session.run(None, {"image": np.zeros((1, size, 8, 3), np.float32)})
            runs = True
        except Exception:  # (onnxruntime: its Concat's sizes differ)
            runs = False
        assert (not sol.unmet({h: size, w: 8})) == runs, (size, sol.constraints)
