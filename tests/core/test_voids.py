"""Axes without any value get fresh names, one per class of equal axes (encodings/voids.lp);
that program part is grounded only when the decoder meets such an axis."""
import numpy as np

import shape_logic
from shape_logic import solver


def _counting(monkeypatch) -> list:
    calls = []
    real = solver.ground_voids

    def counted(ctl, funcs):
        calls.append(1)
        return real(ctl, funcs)

    monkeypatch.setattr(solver, "ground_voids", counted)
    return calls


def test_axes_without_a_value_share_fresh_names_along_equalities(monkeypatch):
    calls = _counting(monkeypatch)
    # s's values are not known, its length is: y has rank 2 and no dims; Relu keeps them,
    # Transpose swaps them
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[6]"}, "s": {"dtype": "i64", "shape": "[2]"}},
         "nodes": [{"op": "Reshape", "inputs": ["x", "s"], "outputs": ["y"]},
                   {"op": "Relu", "inputs": ["y"], "outputs": ["z"]},
                   {"op": "Transpose", "inputs": ["z"], "outputs": ["t"]}]}
    sol = shape_logic.solve(g)
    assert sol.shape("y") == sol.shape("z") == "[_1, _2]"
    assert sol.shape("t") == "[_2, _1]"
    assert calls == [1]


def test_no_void_axis_no_voids_grounding(monkeypatch):
    calls = _counting(monkeypatch)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 3]"}},
         "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}]}
    assert shape_logic.solve(g).shape("y") == "[b, 3]"
    assert calls == []


def test_a_broadcast_of_equal_axes_without_a_value_is_in_their_class():
    # NonZero's count (its own name, _c1: encodings/counts.lp); f and r carry it (Cast,
    # Relu), and f * r, a broadcast of two equal axes, has it too (0 included: a broadcast
    # of 0 with 0 is 0), and so has z + f; Sub's operands are the count and m, which may
    # differ: its axis has no value, a fresh name of its own
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                    "v": {"dtype": "f32", "shape": "[1, m]"}},
         "nodes": [{"op": "NonZero", "inputs": ["x"], "outputs": ["i"]},
                   {"op": "Cast", "inputs": ["i"], "outputs": ["f"], "attrs": {"to": 1}},
                   {"op": "Relu", "inputs": ["f"], "outputs": ["r"]},
                   {"op": "Mul", "inputs": ["f", "r"], "outputs": ["z"]},
                   {"op": "Add", "inputs": ["z", "f"], "outputs": ["w"]},
                   {"op": "Sub", "inputs": ["z", "v"], "outputs": ["d"]},
                   {"op": "Reshape", "inputs": ["x", "s"], "outputs": ["u"]},
                   {"op": "Div", "inputs": ["z", "u"], "outputs": ["q"]}],
         "initializers": {"s": {"dtype": "i64", "shape": [2], "data": [-1, 1]}}}
    sol = shape_logic.solve(g)
    assert sol.shape("f") == sol.shape("r") == sol.shape("z") == sol.shape("w") == "[1, _c1]"
    assert sol.shape("d") == "[1, _1]"  # (no value to broadcast, and not equal: its own)
    assert sol.shape("q") == "[n, _c1]"  # (u's axis is 1: broadcast.lp links it)
    assert sol.ranges == {"_c1": [0, "n"]}


def test_a_reshape_minus_one_of_one_axis_without_a_value_is_that_axis():
    # g : [_c1, 8] (a NonZero count of rows); Reshape to [-1, 8] keeps the count, to [-1] of
    # [1, _c1] too; to [-1, 4] the axis is 2*_c1 (a fresh name of its own before counts had
    # names that arithmetic keeps)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                    "e": {"dtype": "f32", "shape": "[n, 8]"}},
         "nodes": [{"op": "NonZero", "inputs": ["x"], "outputs": ["i"]},
                   {"op": "Reshape", "inputs": ["i", "flat"], "outputs": ["k"]},
                   {"op": "Gather", "inputs": ["e", "k"], "outputs": ["g"]},
                   {"op": "Reshape", "inputs": ["g", "by8"], "outputs": ["g8"]},
                   {"op": "Reshape", "inputs": ["g", "by4"], "outputs": ["g4"]}],
         "initializers": {"flat": {"dtype": "i64", "shape": [1], "data": [-1]},
                          "by8": {"dtype": "i64", "shape": [2], "data": [-1, 8]},
                          "by4": {"dtype": "i64", "shape": [2], "data": [-1, 4]}}}
    sol = shape_logic.solve(g)
    assert sol.shape("i") == "[1, _c1]"
    assert sol.shape("k") == "[_c1]"
    assert sol.shape("g") == sol.shape("g8") == "[_c1, 8]"
    assert sol.shape("g4") == "[2*_c1, 4]"
    # the executor checks every tensor against these shapes: with 2 rows and with none
    for x, rows in ((np.array([0, 1, 2, 0], np.float32), 2), (np.zeros(4, np.float32), 0)):
        result = shape_logic.run(g, {"x": x, "e": np.ones((4, 8), np.float32)})
        assert result["g8"].shape == (rows, 8) and result.bindings["_c1"] == rows
        assert result["g4"].shape == (2 * rows, 4)
