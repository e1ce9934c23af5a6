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
OPEN_AT_MOST = {"transformer_encoder": 0, "unet": 2, "conv1d_audio": 0, "lstm_tagger": 0,
                "bigru_classifier": 0, "arithmetic_ops": 8, "control_ops": 2}


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


def test_declarations_decided_without_a_solve_after_one_that_needed_it(narrowing_solves,
                                                                       monkeypatch):
    # tf2onnx declares every output dim by a unique name of its own (unk__N). Identity:0's
    # axis 1 is one the graph leaves open: its trial is solved and kept, its name taken;
    # the plain declarations after it (Identity_2, _4 .. _7: names for what the graph gives)
    # are decided without a solve, where one such trial made every later one solved. Every
    # trial starts under the floors the solve without declarations found.
    from shape_logic import narrowing, narrowing_obvious

    model, _ = model_and_feeds("arithmetic_ops")
    sol = shape_logic.solve(model)
    (alone, alone_floors), trials = narrowing_solves[0][::2], narrowing_solves[1:]
    assert alone == [] and not alone_floors
    plain = {"Identity_2:0", "Identity_4:0", "Identity_5:0", "Identity_6:0", "Identity_7:0"}
    *tried, final = [outputs for outputs, *_ in trials]
    assert all(outputs[-1] not in plain for outputs in tried)
    assert plain <= set(final)
    floors = {s: v for _, _, f in trials for s, v in f.items()}
    assert floors and all(f == floors for _, _, f in trials)
    assert all(sol.floors.get(s, 1) >= v for s, v in floors.items())
    # the same answer with every trial solved and none under floors found before it
    monkeypatch.setattr(narrowing_obvious.Obvious, "verdict", lambda self, name: None)
    solved_with = narrowing._solved_with
    monkeypatch.setattr(narrowing, "_solved_with",
                        lambda problem, outputs, cancel=None, floors=None:
                        solved_with(problem, outputs, cancel))
    assert shape_logic.solve(model).to_json() == sol.to_json()
