"""ExpandDims (com.microsoft): rules/ExpandDims.lp on data cases, and the rules and the kernel
against onnxruntime on random shapes and axes (the axis an initializer, whose value the
rules see, as onnxruntime's shape inference does)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic import solve
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test


def axis(v):
    return np.array(v, np.int32)


CASES = {
    "a middle axis": ({"inputs": ["[b, s, d]", axis(1)]}, {"y0": "[b, 1, s, d]"}),
    "the front": ({"inputs": ["[b, s, d]", axis(0)]}, {"y0": "[1, b, s, d]"}),
    "the end": ({"inputs": ["[b, s, d]", axis(3)]}, {"y0": "[b, s, d, 1]"}),
    "-1: the end of the output": ({"inputs": ["[b, s, d]", axis(-1)]}, {"y0": "[b, s, d, 1]"}),
    "-4: the front of a rank-4 output": ({"inputs": ["[b, s, d]", axis(-4)]},
                                         {"y0": "[1, b, s, d]"}),
    "an axis of one element": ({"inputs": ["[b, s, d]", axis([2])]}, {"y0": "[b, s, 1, d]"}),
    "a scalar becomes a vector": ({"inputs": ["[]", axis(-1)]}, {"y0": "[1]"}),
    "strings": ({"inputs": [("str", "[n]"), axis(0)]},
                {"y0": "[1, n]", "dtypes": {"y0": "str"}}),
    "the axis is int32": ({"inputs": ["[n]", ("i32", "[]")]}, {"dtypes": {"x1": "i32"}}),
    "an axis of data: the rank only": ({"inputs": ["[b, s]", ("i32", "[]")]},
                                       {"y0": "[_1, _2, _3]"}),
    "an axis of unknown shape has one element": ({"inputs": ["[b, s]", ("i32", "A")]},
                                                 {"y0": "[_1, _2, _3]"}),
    "backward: x from the output": ({"inputs": ["X", axis(1)],
                                     "outputs": {"y0": {"shape": "[2, 1, n]"}}},
                                    {"x0": "[2, n]"}),
    "backward: the rank from the output, axis unknown": (
        {"inputs": ["X", ("i32", "[]")], "outputs": {"y0": {"shape": "[2, 1, n]"}}},
        {"x0": "[_1, _2]"}),
    "the output's axis is not 1": ({"inputs": ["X", axis(1)],
                                    "outputs": {"y0": {"shape": "[2, 3, n]"}}}, "error"),
    "axis past the end": ({"inputs": ["[b, s, d]", axis(4)]}, "error"),
    "axis before the front": ({"inputs": ["[b, s, d]", axis(-5)]}, "error"),
    "a scalar's axis 1": ({"inputs": ["[]", axis(1)]}, "error"),
    "an int64 axis": ({"inputs": ["[b, s]", np.array(1, np.int64)]}, "error"),
    "two axes": ({"inputs": ["[b, s]", axis([0, 1])]}, "error"),
    "an axis of shape [1, 1]": ({"inputs": ["[b, s]", axis([[1]])]}, "error"),
    "an axis of rank 2, unknown values": ({"inputs": ["[b, s]", ("i32", "[1, 1]")]}, "error"),
    "bfloat16 (not in the schema's types)": ({"inputs": [("bf16", "[n]"), axis(0)]}, "error"),
    "float8": ({"inputs": [("f8e4m3fn", "[n]"), axis(0)]}, "error"),
    "one input": ({"inputs": ["[n]"]}, "error"),
}


test_case = case_test("ExpandDims", CASES, domain=MS)


def test_an_axis_computed_from_sizes_places_nothing():
    """An axis from a Shape (a value of the sizes, not an integer) gives the rank only;
    of a known size, the place."""
    g = {"name": "g", "opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[b, s, d]"},
                    "k": {"dtype": "f32", "shape": "[n]"}},
         "nodes": [{"name": "sh", "op": "Shape", "inputs": ["k"], "outputs": ["ks"]},
                   {"name": "c", "op": "Cast", "inputs": ["ks"], "outputs": ["ki"],
                    "attrs": {"to": 6}},
                   {"name": "e", "op": "ExpandDims", "domain": MS, "inputs": ["x", "ki"],
                    "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[_1, _2, _3, _4]"
    g["inputs"]["k"]["shape"] = "[2]"
    assert solve(g).shape("y") == "[b, s, 1, d]"


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), max_size=4),
       data=st.data(), vector=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float16, np.float64, np.int64, np.int8,
                              np.uint16, np.bool_]))
def test_matches_onnxruntime(seed, shape, data, vector, dtype):
    """In range ([-r - 1, r]) and out of it by one: onnxruntime and the rules agree."""
    r = len(shape)
    a = data.draw(st.integers(-r - 2, r + 1))
    x = (np.random.default_rng(seed).standard_normal(shape) * 3).astype(dtype)
    check_against_onnxruntime("ExpandDims", [x, axis([a] if vector else a)], const=(1,))


@pytest.mark.parametrize("axis_in", [axis(3), axis(-4), axis([0, 1]), axis([[1]]),
                                     np.array(0, np.int64)])
def test_onnxruntime_rejects_what_the_rules_reject(axis_in):
    x = np.ones((2, 3), np.float32)
    assert check_against_onnxruntime("ExpandDims", [x, axis_in], const=(1,)) is None
