"""OneHot: rules/OneHot.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, dtype=np.int64)


VALUES = np.array([0, 1], np.float32)
CASES = {
    "default axis: last": ({"inputs": [("i64", "[b, s]"), i64(10), VALUES]},
                           {"y0": "[b, s, 10]", "dtypes": {"y0": "f32"}}),
    "axis 1": ({"inputs": [("i64", "[b, s]"), i64(10), VALUES], "attrs": {"axis": 1}},
               {"y0": "[b, 10, s]"}),
    "axis 0": ({"inputs": [("i64", "[b, s]"), i64(10), VALUES], "attrs": {"axis": 0}},
               {"y0": "[10, b, s]"}),
    "negative axis": ({"inputs": [("i64", "[b, s]"), i64(10), VALUES], "attrs": {"axis": -3}},
                      {"y0": "[10, b, s]"}),
    "depth of one element": ({"inputs": [("i64", "[n]"), np.array([4], np.int64), VALUES]},
                             {"y0": "[n, 4]"}),
    "float depth is truncated (the spec casts it)": (
        {"inputs": [("i64", "[n]"), np.array(4.7, np.float32), VALUES]}, {"y0": "[n, 4]"}),
    "a graph input's depth: a name of its own": (
        {"inputs": [("i64", "[n]"), ("i64", "[]"), VALUES]}, {"y0": "[n, _c1]"}),
    "scalar indices (onnx's shape inference and onnxruntime refuse them)": (
        {"inputs": [("i64", "[]"), i64(3), VALUES]}, "error"),
    "dtype of the values": ({"inputs": [("i64", "[n]"), i64(3), np.array([0, 1], np.int32)]},
                            {"y0": "[n, 3]", "dtypes": {"y0": "i32"}}),
    "backward": ({"inputs": [("i64", "I"), ("i64", "[]"), VALUES],
                  "outputs": {"y0": {"shape": "[b, s, 7]"}}}, {"x0": "[b, s]"}),
    "axis out of range": ({"inputs": [("i64", "[b, s]"), i64(10), VALUES], "attrs": {"axis": 3}},
                          "error"),
    "negative axis out of range": ({"inputs": [("i64", "[b, s]"), i64(10), VALUES],
                                    "attrs": {"axis": -4}}, "error"),
    "zero depth (onnxruntime rejects it)": ({"inputs": [("i64", "[n]"), i64(0), VALUES]},
                                            "error"),
    "three values": ({"inputs": [("i64", "[n]"), i64(3), np.zeros(3, np.float32)]}, "error"),
    "depth of two elements": ({"inputs": [("i64", "[n]"), np.array([3, 4], np.int64), VALUES]},
                              "error"),
}


test_case = case_test("OneHot", CASES, OPSET)


def test_depth_from_a_shape_computation():
    """The depth as a dim of another tensor (Shape -> Gather): a symbolic one-hot axis."""
    g = {"opset": OPSET, "inputs": {"ids": {"dtype": "i64", "shape": "[b, s]"},
                                    "emb": {"shape": "[v, 64]"}},
         "initializers": {"i": {"dtype": "i64", "shape": [], "data": 0},
                          "vals": {"dtype": "f32", "shape": [2], "data": [0, 1]}},
         "nodes": [{"op": "Shape", "inputs": ["emb"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "i"], "outputs": ["depth"]},
                   {"op": "OneHot", "inputs": ["ids", "depth", "vals"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, s, v]"


def test_a_depth_computed_from_sizes_is_the_axis_from_a_floor_on():
    """depth = Shape(x)[0] - 3: the axis is s0 - 3, and s0 >= 4 wherever the graph runs
    (a depth below 1 fails); it was left open (fuzz --open-axes ops, seed 6102)."""
    g = {"opset": OPSET, "inputs": {"ids": {"dtype": "i64", "shape": "[n]"},
                                    "x": {"shape": "[s0, s1]"}},
         "initializers": {"i": {"dtype": "i64", "shape": [], "data": 0},
                          "m3": {"dtype": "i64", "shape": [], "data": -3},
                          "vals": {"dtype": "f32", "shape": [2], "data": [0, 1]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "i"], "outputs": ["s0"]},
                   {"op": "Add", "inputs": ["s0", "m3"], "outputs": ["depth"]},
                   {"op": "OneHot", "inputs": ["ids", "depth", "vals"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[n, s0 - 3]"
    assert sol.to_json()["floors"] == {"s0": 4}


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=2), st.integers(1, 5), st.data())
def test_matches_reference(shape, depth, data):
    # The reference accepts axes past -r-1..r (it gets them wrong) and depths <= 0, which
    # onnxruntime rejects (cases above): only valid ones are drawn
    r = len(shape)
    axis = data.draw(st.integers(-r - 1, r))
    idx = random_array(shape, "i64")
    check_against_reference("OneHot", [idx, i64(depth), VALUES], {"axis": axis}, opset=OPSET,
                            const=[1, 2])
