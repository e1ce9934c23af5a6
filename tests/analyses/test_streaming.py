"""Streaming: the streamed axes' reach, what cannot stream (before running), and a
WaveNet-like stack whose streamed outputs equal the whole run with O(chunk) work a chunk."""
import json
import re

import numpy as np
import pytest

from shape_logic.cli import main
from shape_logic.executor import Program
from shape_logic.stream_exec import Stream, StreamError, run_stream

from .wavenet import wavenet

C, DILATIONS = 4, (1, 2, 4, 8)
# multiply-adds per time step: gate and filter convs (2 taps), residual and skip 1x1
# convs per layer, and the channel mix (MatMul to 3 channels)
MACS_PER_STEP = len(DILATIONS) * (2 * C * C * 2 + 2 * C * C) + 3 * C


def signal(t, seed=1):
    return np.random.default_rng(seed).standard_normal((1, C, t)).astype(np.float32)


@pytest.mark.parametrize("chunk", [1, 3])
def test_wavenet_streams_like_the_whole_run(chunk):
    g = wavenet(C, DILATIONS)
    x = signal(41)
    want = Program(g).run({"x": x})
    got = run_stream(g, {"x": x}, "x", 2, chunk=chunk)
    assert set(got) == {"y", "pooled", "late"}
    for k in want:
        assert got[k].shape == want[k].shape, k
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6)
    # nothing is computed twice: the total is the whole run's, and each chunk costs the
    # same - O(chunk), not O(prefix)
    assert sum(got.macs) == 41 * MACS_PER_STEP
    full_chunks = got.macs[:41 // chunk]
    assert set(full_chunks) == {chunk * MACS_PER_STEP}


def test_the_streamed_axis_can_be_named_by_its_symbol():
    g = wavenet(C, DILATIONS)
    x = signal(5)
    got = run_stream(g, {"x": x}, "T", None, chunk=2)
    np.testing.assert_allclose(got["y"], Program(g).run({"x": x})["y"], rtol=1e-5, atol=1e-6)
    assert Stream(g, "T").plan.axis["x"] == 2


def test_a_chunk_of_the_wrong_shape_is_an_input_error():
    from shape_logic.errors import InputError

    s = Stream(wavenet(C, DILATIONS), "x", 2)
    with pytest.raises(InputError, match=r"has shape \[1, 3, 2\]; the graph wants \[1, 4, T\]"):
        s.push(signal(2)[:, :3])
    with pytest.raises(InputError, match="has dtype f64"):
        s.push(signal(2).astype(np.float64))


def test_streamed_axes_follow_transposes():
    s = Stream(wavenet(C, DILATIONS), "x", -1)
    axis = s.plan.axis
    assert axis["x"] == 2 and axis["h8"] == 2 and axis["skip"] == 2
    assert axis["tr"] == 1 and axis["mixed"] == 1  # [1, T, C] after the Transpose
    assert axis["y"] == 2 and axis["pooled"] == 2 and axis["late"] == 2
    assert "mix" not in axis and "wf1" not in axis  # weights are not streamed


def small_graph(node, shape="[1, 4, 5]", **inits):
    g = {"inputs": {"x": {"dtype": "f32", "shape": shape}}, "nodes": [node],
         "outputs": {node["outputs"][0]: {}}}
    if inits:
        g["initializers"] = inits
    return g


@pytest.mark.parametrize("node, inits, message", [
    ({"name": "r", "op": "ReduceSum", "inputs": ["x", "ax"], "outputs": ["y"]},
     {"ax": {"dtype": "i64", "shape": [1], "data": [-1]}},
     'ReduceSum node "r" reduces the streamed axis'),
    ({"name": "sm", "op": "Softmax", "inputs": ["x"], "outputs": ["y"], "attrs": {"axis": -1}},
     {}, 'Softmax node "sm" normalizes along the streamed axis'),
    ({"name": "mm", "op": "MatMul", "inputs": ["x", "w"], "outputs": ["y"]},
     {"w": {"dtype": "f32", "shape": [5, 2], "data": 1.0}},
     'MatMul node "mm" contracts the streamed axis'),
    ({"name": "rs", "op": "Reshape", "inputs": ["x", "s"], "outputs": ["y"]},
     {"s": {"dtype": "i64", "shape": [2], "data": [4, 5]}}, "has no streaming step (Reshape)"),
    ({"name": "add", "op": "Add", "inputs": ["x", "c"], "outputs": ["y"]},
     {"c": {"dtype": "f32", "shape": [1, 1, 5], "data": 1.0}},
     "broadcasts a constant spanning the streamed axis"),
])
def test_what_cannot_stream_is_reported_before_running(node, inits, message):
    with pytest.raises(StreamError, match=re.escape(message)):
        Stream(small_graph(node, **inits), "x", 2)


def test_a_reduction_over_another_axis_streams():
    g = small_graph({"name": "r", "op": "ReduceMean", "inputs": ["x", "ax"], "outputs": ["y"],
                     "attrs": {"keepdims": 0}},
                    ax={"dtype": "i64", "shape": [1], "data": [1]})
    x = signal(5)
    got = run_stream(g, {"x": x}, "x", 2, chunk=2)
    np.testing.assert_allclose(got["y"], x.mean(axis=1), rtol=1e-6)


def test_cli_streams_and_writes_the_whole_outputs(tmp_path, capsys):
    g = tmp_path / "wavenet.json"
    g.write_text(json.dumps(wavenet(C, DILATIONS)))
    x = signal(6)
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out"
    assert main(["run", str(g), "--input", f"x={tmp_path / 'x.npy'}", "--stream", "x:2",
                 "--chunk", "2", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("[0] y steps 0:2 [1, 3, 2]")
    assert "[2] y steps 4:6" in text and f"(total {6 * MACS_PER_STEP})" in text
    want = Program(str(g)).run({"x": x})
    for k in want:
        np.testing.assert_allclose(np.load(out / f"{k}.npy"), want[k], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("stream, code, message", [
    ("x:1", 1, 'cannot stream: Conv node "f1" mixes the channels'),
    ("x", 2, "--stream x: the symbol must be exactly one axis of one input (found: none)"),
    ("x:y", 2, "expected NAME:AXIS"),
    ("q:2", 2, "give the whole of 'q' with --input"),
    ("x:3", 2, "axis out of range"),
])
def test_cli_stream_errors(stream, code, message, tmp_path, capsys):
    g = tmp_path / "wavenet.json"
    g.write_text(json.dumps(wavenet(C, DILATIONS)))
    np.save(tmp_path / "x.npy", signal(4))
    assert main(["run", str(g), "--input", f"x={tmp_path / 'x.npy'}",
                 "--stream", stream]) == code
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("chunk", [1, 2])
def test_concat_of_streams_with_different_histories_and_average_pooling(chunk):
    rng = np.random.default_rng(3)
    w = rng.standard_normal((2, C, 3)).astype(np.float32).tolist()
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 4, T]"}},
         "initializers": {"w": {"dtype": "f32", "shape": [2, C, 3], "data": w}},
         "nodes": [
             {"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["a"],
              "attrs": {"pads": [2, 0]}},
             {"name": "relu", "op": "Relu", "inputs": ["x"], "outputs": ["b"]},
             {"name": "cat", "op": "Concat", "inputs": ["a", "b"], "outputs": ["c"],
              "attrs": {"axis": 1}},
             {"name": "pool", "op": "AveragePool", "inputs": ["c"], "outputs": ["y"],
              "attrs": {"kernel_shape": [2], "strides": [2]}}],
         "outputs": {"y": {}, "c": {}}}
    x = signal(9)
    want = Program(g).run({"x": x})
    got = run_stream(g, {"x": x}, "x", 2, chunk=chunk)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6)
    assert sum(got.macs) == 9 * 2 * C * 3  # the convolution's, computed once


def test_a_window_of_another_domain_is_not_run_with_onnxs_kernel():
    """A Conv of a custom domain, its output annotated so that it can stream: there is no
    kernel for it (as `run` says), never ONNX's Conv in its place."""
    from shape_logic.errors import InputError

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 2, T]"}},
         "outputs": {"y": {"dtype": "f32", "shape": "[1, 2, T - 2]"}},
         "initializers": {"w": {"dtype": "f32", "shape": [2, 2, 3],
                                "data": np.ones((2, 2, 3)).tolist()}},
         "nodes": [{"op": "Conv", "domain": "my.domain", "inputs": ["x", "w"],
                    "outputs": ["y"]}]}
    with pytest.raises(InputError, match="Conv of domain 'my.domain': no kernel"):
        run_stream(g, {"x": np.ones((1, 2, 7), np.float32)}, "x", 2, chunk=2)
