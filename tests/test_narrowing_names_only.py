"""Declared outputs that only name what the graph gives (narrowing_obvious.names_only): a
UNet pools by 2 and upsamples back, so it requires 2*(h//2) = h by itself; its output
declared with names of its own and the graph's channel count requires nothing more, and
the model is solved once, with the answer the solve without the declarations gives. A
declaration that does require something (an integer for a symbolic size, a name for a
size that may be 0) is still tried, and set aside."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import narrowing, solve

_SOLVED_WITH = narrowing._solved_with


def _unet(declared, channels="c", slice_from=None):
    """x [b, channels, h] max-pooled by 2, resized by 2 and added to x: y [b, c, h] where
    h is even. `slice_from`: y is then sliced on its last axis from that offset (a size
    h - k that may be 0)."""
    consts = [numpy_helper.from_array(np.asarray(v, dt), k) for k, v, dt in (
        ("scales", [1.0, 1.0, 2.0], np.float32), ("start", [slice_from or 0], np.int64),
        ("end", [1 << 40], np.int64), ("axis", [2], np.int64))]
    nodes = [helper.make_node("MaxPool", ["x"], ["p"], kernel_shape=[2], strides=[2]),
             helper.make_node("Resize", ["p", "", "scales"], ["u"], mode="nearest"),
             helper.make_node("Add", ["x", "u"], ["y"])]
    if slice_from is not None:
        nodes.append(helper.make_node("Slice", ["y", "start", "end", "axis"], ["z"]))
    out = "z" if slice_from is not None else "y"
    graph = helper.make_graph(
        nodes, "unet", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                      ["b", channels, "h"])],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, declared)], consts)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _solved(model, monkeypatch, shortcut=True):
    """The solution and how many solves narrowing made beside the model's own (`shortcut`
    False: names_only off)."""
    made = []

    def counted(*args, **kwargs):
        made.append(1)
        return _SOLVED_WITH(*args, **kwargs)

    monkeypatch.setattr(narrowing, "_solved_with", counted)
    if not shortcut:
        monkeypatch.setattr(narrowing, "names_only", lambda *a: False)
    return solve(model), len(made)


@pytest.mark.parametrize("channels", ["c", 3])
def test_names_of_its_own_and_the_graphs_integers_are_solved_once(monkeypatch, channels):
    declared = ["Add_dim_0", channels, "Add_dim_2"]
    model = _unet(declared, channels)
    sol, solves = _solved(model, monkeypatch)
    assert solves == 0
    assert sol.shape("y") == f"[b, {channels}, h]" and not sol.warnings
    assert "h%2 = 0" in sol.to_text()  # (the graph's own requirement, 2*(h//2) = h, kept)
    again, solves_again = _solved(model, monkeypatch, shortcut=False)
    assert solves_again == 1 and again.to_json() == sol.to_json()


def test_an_integer_for_a_symbolic_size_is_still_set_aside(monkeypatch):
    sol, solves = _solved(_unet(["Add_dim_0", 2, "Add_dim_2"]), monkeypatch)
    assert solves > 0
    assert sol.shape("y") == "[b, c, h]"
    assert len(sol.warnings) == 1 and "which would require c = 2" in sol.warnings[0]


def test_a_name_for_a_size_that_may_be_0_is_still_tried(monkeypatch):
    # z's last axis is max(0, h - 5): a name there is a size of at least 1, h >= 6
    model = _unet(["Slice_dim_0", "c", "Slice_dim_2"], slice_from=5)
    sol, solves = _solved(model, monkeypatch)
    assert solves > 0
    again, _ = _solved(model, monkeypatch, shortcut=False)
    assert again.to_json() == sol.to_json()
