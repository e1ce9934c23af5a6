"""Concat: rules/Concat.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "sizes add up": ({"inputs": ["[b, s, 64]", "[b, t, 64]"], "attrs": {"axis": 1}},
                     {"y0": "[b, s + t, 64]"}),
    "negative axis": ({"inputs": ["[b, 3]", "[b, 4]", "[b, 5]"], "attrs": {"axis": -1}},
                      {"y0": "[b, 12]"}),
    "one input": ({"inputs": ["[b, s]"], "attrs": {"axis": 0}}, {"y0": "[b, s]"}),
    "other axes are linked": ({"inputs": ["[b, 3]", "[c, 4]"], "attrs": {"axis": 1}},
                              {"y0": "[b, 7]", "x1": "[b, 4]", "bindings": {"c": "b"}}),
    "empty piece": ({"inputs": ["[0, 3]", "[2, 3]"], "attrs": {"axis": 0}}, {"y0": "[2, 3]"}),
    "backward: the last piece": ({"inputs": ["[b, 3]", "[b, t]"], "attrs": {"axis": 1},
                                  "outputs": {"y0": {"shape": "[b, 10]"}}},
                                 {"x1": "[b, 7]", "bindings": {"t": 7}}),
    "dtype kept": ({"inputs": [("i64", "[2]"), ("i64", "[3]")], "attrs": {"axis": 0}},
                   {"y0": "[5]", "dtypes": {"y0": "i64"}}),
    # before opset 4 the axis is 1 by default; from opset 4 it is required
    "opset 3: axis 1 by default": ({"inputs": ["[b, 3]", "[b, 4]"], "opset": 3},
                                   {"y0": "[b, 7]"}),
    "opset 4: no axis": ({"inputs": ["[b, 3]", "[b, 4]"], "opset": 4}, "error"),
    "other axes differ": ({"inputs": ["[2, 3]", "[3, 3]"], "attrs": {"axis": 1}}, "error"),
    "ranks differ": ({"inputs": ["[2, 3]", "[3]"], "attrs": {"axis": 0}}, "error"),
    "ranks differ, negative axis": ({"inputs": ["[1, 2]", "[3, 1, 3]"], "attrs": {"axis": -1}},
                                    "error"),
    "ranks differ, negative axis, symbolic": ({"inputs": ["[a, b]", "[c, d, e]"],
                                               "attrs": {"axis": -1}}, "error"),
    "output of another rank, negative axis": ({"inputs": ["[b, 3]", "[b, 4]"],
                                               "attrs": {"axis": -1},
                                               "outputs": {"y0": {"shape": "[7]"}}}, "error"),
    "negative axis, an input of unknown rank": ({"inputs": ["[b, 3]", "X"], "attrs": {"axis": -1}},
                                                {"y0": "[b, _1]"}),
    "non-negative axis, an input of unknown rank": ({"inputs": ["[b, 3]", "X"],
                                                     "attrs": {"axis": 1}},
                                                    {"x1": "[b, _1]", "y0": "[b, _2]"}),
    "axis out of range": ({"inputs": ["[2, 3]", "[2, 3]"], "attrs": {"axis": 2}}, "error"),
    "negative axis out of range": ({"inputs": ["[2, 3]", "[2, 3]"], "attrs": {"axis": -3}},
                                   "error"),
    "scalars": ({"inputs": ["[]", "[]"], "attrs": {"axis": 0}}, "error"),
    "no axis": ({"inputs": ["[2]", "[3]"]}, "error"),
    "dtypes differ": ({"inputs": [("i64", "[2]"), ("f32", "[3]")], "attrs": {"axis": 0}},
                      "error"),
    "no inputs": ({"inputs": [], "attrs": {"axis": 0}}, "error"),
}


test_case = case_test("Concat", CASES, OPSET)


def test_values_joined():
    """Shape -> Concat(shape, [12, 64]) -> Reshape: the joined vector is a shape."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s]"}, "d": {"shape": "D"}},
         "initializers": {"c": {"dtype": "i64", "shape": [2], "data": [12, 64]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Concat", "inputs": ["sh", "c"], "outputs": ["v"], "attrs": {"axis": 0}},
                   {"op": "Reshape", "inputs": ["d", "v"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("r") == "[b, s, 12, 64]"


def test_matrices_joined_along_axis_0():
    """tf2onnx's dynamic tf.pad: pads [[0, 0], [0, 8 - n]] as a Concat of two [1, 2] int32
    rows, transposed and flattened: each row's elements follow the previous row's, so Pad
    gives [b, n + 8 - n] = [b, 8]."""
    def padded(axis):
        g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, n]"}},
             "initializers": {
                 "top": {"dtype": "i32", "shape": [1, 2], "data": [[0, 0]]},
                 "zero": {"dtype": "i32", "shape": [1], "data": [0]},
                 "eight": {"dtype": "i32", "shape": [], "data": 8},
                 "ax": {"dtype": "i64", "shape": [1], "data": [0]},
                 "one": {"dtype": "i64", "shape": [1], "data": [1]},
                 "two": {"dtype": "i64", "shape": [1], "data": [2]},
                 "flat": {"dtype": "i64", "shape": [1], "data": [-1]}},
             "nodes": [
                 {"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
                 {"op": "Cast", "inputs": ["s"], "outputs": ["s32"], "attrs": {"to": 6}},
                 {"op": "Slice", "inputs": ["s32", "one", "two", "ax"], "outputs": ["n1"]},
                 {"op": "Sub", "inputs": ["eight", "n1"], "outputs": ["d"]},
                 {"op": "Concat", "inputs": ["zero", "d"], "outputs": ["row"],
                  "attrs": {"axis": 0}},
                 {"op": "Unsqueeze", "inputs": ["row", "ax"], "outputs": ["row2"]},
                 {"op": "Concat", "inputs": ["top", "row2"], "outputs": ["m"],
                  "attrs": {"axis": axis}},
                 {"op": "Cast", "inputs": ["m"], "outputs": ["m64"], "attrs": {"to": 7}},
                 {"op": "Transpose", "inputs": ["m64"], "outputs": ["mt"],
                  "attrs": {"perm": [1, 0]}},
                 {"op": "Reshape", "inputs": ["mt", "flat"], "outputs": ["pads"]},
                 {"op": "Pad", "inputs": ["x", "pads"], "outputs": ["y"]}]}
        sol = solve(g)
        assert sol.status == "ok"
        return sol.shape("y")
    assert padded(0) == "[b, 8]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.integers(1, 3), st.data())
def test_matches_reference(shape, n, data):
    # pieces that differ along the axis, and sometimes elsewhere or in rank (the reference
    # rejects those, so must the rules); axes from -r-1..r
    r = len(shape)
    axis = data.draw(st.integers(-r - 1, r))
    arrays = []
    for _ in range(n):
        s = list(shape)
        if -r <= axis < r:
            s[axis] = data.draw(st.integers(0, 3))
        if data.draw(st.integers(0, 5)) == 0:
            s = s[1:] if data.draw(st.booleans()) else s + [1]
        elif data.draw(st.integers(0, 5)) == 0:
            s[data.draw(st.integers(0, r - 1))] += 1
        arrays.append(random_array(s))
    check_against_reference("Concat", arrays, {"axis": axis}, opset=OPSET)


def test_opset_3_kernel_joins_along_axis_1():
    import numpy as np

    from shape_logic.kernels import load_kernel

    (y,) = load_kernel("Concat")({}, opset=3)(np.ones((2, 3)), np.zeros((2, 4)))
    assert y.shape == (2, 7) and y[:, 3:].sum() == 0
