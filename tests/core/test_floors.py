"""Floors: lower bounds of input symbols that a convolution or pooling requires (its window
must fit: encodings/floors.lp), and the arithmetic under them (shape_logic/asp/floors.py).

Wav2Vec2, HuBERT and SEW-D compute the number of frames of an audio of length s by
convolutions without padding, which run only where s >= 400; under that floor a Slice of
the frames, `max(0, f - 1)`, is `f - 1`, and an integer Div of `s//80 - 3` (dynamo's export
of the frames' formula: Div truncates) is a floor division. Each graph here is checked
against onnxruntime at sizes around its floor."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.asp.floors import LEAST_CAP, Floors, least
from shape_logic.symbolic.values import function_of
from shape_logic.symbolic.parse import parse_dim

from ..onnx_graphs import assert_runtime_shapes


# ----- the arithmetic

@pytest.mark.parametrize("text, floor", [
    ("(s - 10)//5 + 1", 10),                             # a kernel of 10, stride 5
    ("((s//80 + 1)//2 + 1)//2 - 1", 400),                # Wav2Vec2's seven convolutions
    ("(((s//80 + 1)//2 + 1)//2 + 1)//2 - 1", 720),       # and SEW-D's pooling after them
    ("s - 2", 3),
])
def test_least_is_the_first_value_that_runs(text, floor):
    e = parse_dim(text)
    assert least(e) == ("s", floor)
    assert function_of(e, "s")(floor) >= 1
    assert all(function_of(e, "s")(v) < 1 for v in range(1, floor))


@pytest.mark.parametrize("text", ["s", "s//2 + 1", "b*s - 1", "s - t"])
def test_no_floor_of_several_symbols_or_of_a_value_already_at_least_one(text):
    assert least(parse_dim(text)) is None


def test_a_floor_past_the_values_tried_is_one_above_them():
    # (s//5000 - 1 < 1 for every s tried: a sound floor, if not the least)
    assert least(parse_dim("s//5000 - 1")) == ("s", LEAST_CAP + 1)


def test_floors_decide_bounds_and_drop_dominated_arguments():
    f = Floors({"s": 400})
    assert f.bounds(parse_dim("s//80 - 3"))[0] == 2
    assert str(f.simplified(parse_dim("max(0, ((s//80 + 1)//2 + 1)//2 - 2)"))) == \
        "(s + 240)//320 - 2"
    assert str(f.simplified(parse_dim("min(64, s) + max(1, t - 1)"))) == "max(1, t - 1) + 64"
    # (an argument not dominated under the floors stays)
    assert str(f.simplified(parse_dim("max(0, s//80 - 6)"))) == "max(0, s//80 - 6)"


# ----- graphs, against onnxruntime

def _window(op, x, y, kernel, stride, pads=(0, 0)):
    ins = [x, f"w_{y}"] if op == "Conv" else [x]
    return helper.make_node(op, ins, [y], kernel_shape=[kernel], strides=[stride],
                            pads=list(pads))


def _model(nodes, inits, pads=(0, 0), pool=None):
    """x [b, 1, s] through a Conv (4 channels) or a pooling `pool` with a window of 10 and
    stride 5 to y, [b, c, s//5 - 1], and the same again with a window of 2 and stride 1 to
    y2, [b, c, s//5 - 2] (so s >= 15 without padding); `nodes` read x, y and the Shape of x
    (`xs`)."""
    op = pool or "Conv"
    weights = [] if pool else [numpy_helper.from_array(np.ones(shape, np.float32), name)
                               for name, shape in (("w_y", (4, 1, 10)), ("w_y2", (4, 4, 2)))]
    consts = [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in inits.items()]
    graph = helper.make_graph(
        [_window(op, "x", "y", 10, 5, pads), _window(op, "y", "y2", 2, 1, pads),
         helper.make_node("Shape", ["x"], ["xs"])] + nodes, "floors",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 1, "s"])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
         for o in ("y2", nodes[-1].output[0])], weights + consts)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _feeds(*sizes):
    return [{"x": np.ones((2, 1, s), np.float32)} for s in sizes]


def _div_model(pads=(0, 0)):
    """Div(s - 14, 2) (truncating) sizes a ConstantOfShape: a floor division where s >= 14."""
    return _model([
        helper.make_node("Gather", ["xs", "two"], ["n"], axis=0),
        helper.make_node("Sub", ["n", "fourteen"], ["m"]),
        helper.make_node("Div", ["m", "two"], ["h"]),
        helper.make_node("Unsqueeze", ["h", "zero"], ["hv"]),
        helper.make_node("ConstantOfShape", ["hv"], ["out"]),
    ], {"two": 2, "fourteen": 14, "zero": [0]}, pads=pads)


def test_an_integer_div_of_a_length_a_convolution_bounds():
    model = _div_model()
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("y") == "[b, 4, s//5 - 1]"
    assert sol.shape("out") == "[s//2 - 7]"
    for feed in _feeds(15, 16, 23, 57):
        assert_runtime_shapes(model, sol, feed)


def test_no_floor_where_the_window_fits_any_input():
    """Padded by 5 on each side, the kernel of 10 fits any s >= 1: s - 14 may be negative,
    where Div truncates (s = 13: -1 / 2 is 0, not -1), so the size is the truncated
    quotient, max(0, s - 14)//2 - max(0, 14 - s)//2, not s//2 - 7."""
    model = _div_model(pads=(5, 5))
    sol = solve(model)
    assert sol.status == "ok"
    assert sol.shape("y") == "[b, 4, s//5 + 1]"
    assert sol.shape("out") == "[max(0, s - 14)//2 - max(0, 14 - s)//2]"
    for feed in _feeds(13, 14, 15, 23):  # (below 13 the size is negative: no run)
        assert_runtime_shapes(model, sol, feed)


def _clamp_model(pool=None):
    """y's last step dropped (a Slice to -1: max(0, f - 1) of y's f frames), z [b, c,
    f - 1], reshaped to [-1, its length, c] (SEW-D's attention heads): a length of 0 would
    copy z's axis 1 (c) instead, and the -1 be undecided; the length is >= 1, and the -1
    is b, where y2's window fits (f >= 2, s >= 15: SEW-D pools the frames by 2)."""
    return _model([
        helper.make_node("Slice", ["y", "zero", "minus1", "two"], ["z"]),
        helper.make_node("Shape", ["z"], ["zs"]),
        helper.make_node("Slice", ["zs", "two", "three"], ["len"]),
        helper.make_node("Concat", ["minus1", "len", "cs"], ["target"], axis=0),
        helper.make_node("Reshape", ["z", "target"], ["out"]),
    ], {"zero": [0], "two": [2], "three": [3], "minus1": [-1],
        "cs": [1 if pool else 4]}, pool=pool)


@pytest.mark.parametrize("pool", [None, "AveragePool", "MaxPool"])
def test_a_slice_of_the_frames_is_no_clamp_where_two_frames_are_required(pool):
    model = _clamp_model(pool)
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    c = 1 if pool else 4
    assert sol.shape("z") == f"[b, {c}, s//5 - 2]"
    assert sol.shape("out") == f"[b, s//5 - 2, {c}]"
    for feed in _feeds(15, 16, 19, 20, 33):  # (at s = 10..14 the Reshape fails: 0 frames)
        assert_runtime_shapes(model, sol, feed)


def test_floors_are_reported(tmp_path):
    # what the graph requires of its inputs' symbols is said, as a range is: s >= 25 for a
    # Conv of 10 / 5 and a MaxPool of 4 after it (text, JSON); a floor of 1 is none, and a
    # bound symbol has its value instead
    import json

    from ..core.test_cli import cli

    def graph(w=10, pool=4, outputs=None):
        return {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, s]"},
                           "w": {"dtype": "f32", "shape": f"[1, 1, {w}]"}},
                "nodes": [{"op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                           "attrs": {"strides": [5]}},
                          {"op": "MaxPool", "inputs": ["y"], "outputs": ["z"],
                           "attrs": {"kernel_shape": [pool]}}],
                "outputs": outputs or {}}

    sol = solve(graph())
    assert sol.shape("z") == "[1, 1, s//5 - 4]" and sol.floors == {"s": 25}
    assert sol.to_json()["floors"] == {"s": 25}
    assert solve(graph(pool=1)).floors == {"s": 10}
    assert solve(graph(w=1, pool=1)).floors == {} and "floors" not in solve(
        graph(w=1, pool=1)).to_json()
    # s in 55..59 (z of 7): the range says more
    assert solve(graph(outputs={"z": {"shape": "[1, 1, 7]"}})).floors == {}
    (tmp_path / "g.json").write_text(json.dumps(graph()))
    assert "floors: s >= 25" in cli("solve", tmp_path / "g.json").stdout


def test_a_run_below_a_floor_says_so():
    # the closing solve's diagnostic (MaxPool's negative axis) names the floor the inputs
    # missed; at the floor the run goes through
    from shape_logic.executor import ExecutionError, run

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, s]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 10]"}},
         "nodes": [{"op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"strides": [5]}},
                   {"op": "MaxPool", "inputs": ["y"], "outputs": ["z"],
                    "attrs": {"kernel_shape": [4]}}]}
    w = np.ones((1, 1, 10), np.float32)
    with pytest.raises(ExecutionError, match=r"bindings: s=12; the graph requires s >= 25\)"):
        run(g, {"x": np.ones((1, 1, 12), np.float32), "w": w})
    assert run(g, {"x": np.ones((1, 1, 25), np.float32), "w": w})["z"].shape == (1, 1, 1)
