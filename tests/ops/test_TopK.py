"""TopK: rules/TopK.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test


def k(value):
    return np.array([value], dtype=np.int64)


CASES = {
    "k on the last axis": ({"inputs": ["[b, n]", k(3)], "n_outputs": 2},
                           {"y0": "[b, 3]", "y1": "[b, 3]",
                            "dtypes": {"y0": "f32", "y1": "i64"}}),
    "axis 0": ({"inputs": ["[b, n]", k(2)], "attrs": {"axis": 0}, "n_outputs": 2},
               {"y0": "[2, n]", "y1": "[2, n]"}),
    "negative axis": ({"inputs": ["[b, n, m]", k(2)], "attrs": {"axis": -2}, "n_outputs": 2},
                      {"y0": "[b, 2, m]", "y1": "[b, 2, m]"}),
    "largest = 0, sorted = 0": ({"inputs": ["[b, n]", k(1)],
                                 "attrs": {"largest": 0, "sorted": 0}, "n_outputs": 2},
                                {"y0": "[b, 1]", "y1": "[b, 1]"}),
    "k = 0": ({"inputs": ["[b, n]", k(0)], "n_outputs": 2}, {"y0": "[b, 0]", "y1": "[b, 0]"}),
    "k = the whole axis": ({"inputs": ["[b, 4]", k(4)], "n_outputs": 2},
                           {"y0": "[b, 4]", "y1": "[b, 4]"}),
    "integer values": ({"inputs": [("i32", "[n]"), k(2)], "n_outputs": 2},
                       {"y0": "[2]", "dtypes": {"y0": "i32", "y1": "i64"}}),
    "a graph input's k: a name of its own": ({"inputs": ["[b, n]", ("i64", "[1]")],
                                               "n_outputs": 2},
                                              {"y0": "[b, _c1]", "y1": "[b, _c1]",
                                               "x1": "[1]"}),
    "unknown k, known from an output": ({"inputs": ["[b, n]", ("i64", "[1]")], "n_outputs": 2,
                                         "outputs": {"y0": {"shape": "[b, 4]"}}},
                                        {"y1": "[b, 4]"}),
    "backward: the other axes": ({"inputs": ["x", k(2)], "n_outputs": 2,
                                  "outputs": {"y1": {"shape": "[5, 2]"}}},
                                 {"x0": "[5, _1]", "y0": "[5, 2]"}),
    "opset 9: k attribute": ({"inputs": ["[b, n]"], "attrs": {"k": 2}, "n_outputs": 2,
                              "opset": 9}, {"y0": "[b, 2]", "y1": "[b, 2]"}),
    "opset 10: k input": ({"inputs": ["[b, n]", k(2)], "attrs": {"axis": 0}, "n_outputs": 2,
                           "opset": 10}, {"y0": "[2, n]", "y1": "[2, n]"}),
    "k exceeds the axis": ({"inputs": ["[b, 3]", k(4)], "n_outputs": 2}, "error"),
    "negative k": ({"inputs": ["[b, n]", k(-1)], "n_outputs": 2}, "error"),
    "axis out of range": ({"inputs": ["[b, n]", k(1)], "attrs": {"axis": 2}, "n_outputs": 2},
                          "error"),
    "K holds two values": ({"inputs": ["[b, n]", ("i64", "[2]")], "n_outputs": 2}, "error"),
    "K not int64": ({"inputs": ["[b, n]", ("i32", "[1]")], "n_outputs": 2}, "error"),
    "no K since opset 10": ({"inputs": ["[b, n]"], "attrs": {"k": 2}, "n_outputs": 2},
                            "error"),
    "K input before opset 10": ({"inputs": ["[b, n]", k(2)], "n_outputs": 2, "opset": 9},
                                "error"),
    "one output": ({"inputs": ["[b, n]", k(2)]}, "error"),
    "outputs disagree": ({"inputs": ["[b, n]", ("i64", "[1]")], "n_outputs": 2,
                          "outputs": {"y0": {"shape": "[b, 2]"}, "y1": {"shape": "[b, 3]"}}},
                         "error"),
}


test_case = case_test("TopK", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.integers(0, 5),
       st.integers(-4, 3), st.integers(0, 1))
def test_matches_reference(shape, k_, axis, largest):
    # k beyond the axis and axes past the last: the reference rejects them (it wraps
    # axes below -rank around, which the spec and onnxruntime reject: not drawn)
    axis = max(axis, -len(shape))
    check_against_reference("TopK", [random_array(shape), k(k_)],
                            {"axis": axis, "largest": largest}, n_outputs=2, const=[1])
