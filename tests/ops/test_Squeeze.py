"""Squeeze: rules/Squeeze.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "axes input": ({"inputs": ["[b, 1, s, 1]", i64(1)]}, {"y0": "[b, s, 1]"}),
    "two axes": ({"inputs": ["[b, 1, s, 1]", i64(1, 3)]}, {"y0": "[b, s]"}),
    "negative axes": ({"inputs": ["[b, 1, s, 1]", i64(-1, -3)]}, {"y0": "[b, s]"}),
    "unsorted axes": ({"inputs": ["[1, b, 1]", i64(2, 0)]}, {"y0": "[b]"}),
    "a symbol at a squeezed axis is 1": ({"inputs": ["[b, s]", i64(0)]},
                                         {"x0": "[1, s]", "y0": "[s]",
                                          "bindings": {"b": 1}}),
    "axes attribute (opset 11)": ({"inputs": ["[b, 1, s]"], "attrs": {"axes": [1]},
                                   "opset": 11}, {"y0": "[b, s]"}),
    "axes attribute (opset 1)": ({"inputs": ["[b, 1, s]"], "attrs": {"axes": [1]},
                                  "opset": 1}, {"y0": "[b, s]"}),
    "no axes: the 1s go": ({"inputs": ["[1, 3, 1, 2]"]}, {"y0": "[3, 2]"}),
    "no axes: a dim that cannot be 1 stays": ({"inputs": ["[1, 2*s, 1]"]}, {"y0": "[2*s]"}),
    "no axes: a KV cache's length stays": ({"inputs": ["[1, past + seq, 1, 4]"]},
                                           {"y0": "[past + seq, 4]"}),
    "no axes: a symbol may be 1, nothing is known": ({"inputs": ["[1, s, 1]"]}, {"y0": "_1"}),
    "no axes (opset 11)": ({"inputs": ["[1, 3, 1]"], "opset": 11}, {"y0": "[3]"}),
    "all axes: a scalar": ({"inputs": ["[1, 1]", i64(0, 1)]}, {"y0": "[]"}),
    "scalar without axes": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "runtime axes: nothing (an axis may be listed twice)": (
        {"inputs": ["[b, 1, s, 1]", ("i64", "[2]")]}, {"y0": "_1"}),
    "repeated axis: removed once (onnxruntime, onnx's shape inference)": (
        {"inputs": ["[1, s]", i64(0, 0)]}, {"y0": "[s]"}),
    "repeated axis, negative": ({"inputs": ["[1, s]", i64(0, -2)]}, {"y0": "[s]"}),
    "dtype kept": ({"inputs": [("i32", "[1, 3]"), i64(0)]},
                   {"y0": "[3]", "dtypes": {"y0": "i32"}}),
    "squeezed axis is not 1": ({"inputs": ["[2, s]", i64(0)]}, "error"),
    "axis out of range": ({"inputs": ["[1, s]", i64(2)]}, "error"),
    "negative axis out of range": ({"inputs": ["[1, s]", i64(-3)]}, "error"),
    "negative axis before opset 11": ({"inputs": ["[1, s]"], "attrs": {"axes": [-2]},
                                       "opset": 10}, "error"),
    "output rank clashes": ({"inputs": ["[1, s]", i64(0)],
                             "outputs": {"y0": {"shape": "[1, s]"}}}, "error"),
    # backward from Y's rank (fuzz --backward): no axis gone, or every one
    "no axes: Y of X's rank keeps every axis": (
        {"inputs": ["[?, ?, 3]"], "outputs": {"y0": {"shape": "[n, m, ?]"}}},
        {"x0": "[n, m, 3]", "y0": "[n, m, 3]"}),
    "no axes: a scalar Y, every axis 1": (
        {"inputs": ["[?, s]"], "outputs": {"y0": {"shape": "[]"}}},
        {"x0": "[1, 1]", "bindings": {"s": 1}}),
    "no axes: Y of X's rank, but X has a 1": (
        {"inputs": ["[1, s]"], "outputs": {"y0": {"shape": "[n, m]"}}}, "error"),
}


test_case = case_test("Squeeze", CASES, OPSET)


def test_values_kept():
    """Shape -> Squeeze -> Reshape: the elements go through (shape computations)."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s]"}, "d": {"shape": "D"}},
         "initializers": {"ax": {"dtype": "i64", "shape": [1], "data": [0]}},
         "nodes": [
             {"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
             {"op": "Unsqueeze", "inputs": ["sh", "ax"], "outputs": ["u"]},
             {"op": "Squeeze", "inputs": ["u", "ax"], "outputs": ["v"]},
             {"op": "Reshape", "inputs": ["d", "v"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("u") == "[1, 2]" and sol.shape("r") == "[b, s]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), max_size=4), st.data(), st.booleans())
def test_matches_reference(shape, data, old):
    # axes drawn from -r-1..r, possibly repeated, at axes that may not be 1: the reference
    # rejects those, so must the rules; or no axes at all.  A scalar only without axes:
    # numpy (the reference) squeezes its axis 0, which ONNX says is out of range.
    r = len(shape)
    axes = data.draw(st.none() | st.lists(st.integers(-r - 1, r), min_size=1, max_size=3)
                     if r else st.none())
    x = random_array(shape)
    if old:  # opset 11: an attribute
        # The reference's Squeeze-1/11 squeezes the axes one after the other from the last
        # listed, which is the spec's semantics only for ascending non-negative axes
        if axes is not None:
            axes = sorted({a for a in axes if a >= 0}) or [0]
        attrs = None if axes is None else {"axes": axes}
        check_against_reference("Squeeze", [x], attrs, opset=11)
    else:
        # The reference's Squeeze-13 rejects a repeated axis, which onnxruntime and onnx's
        # shape inference squeeze once, as the rules do: the reference may fail alone then
        repeated = axes is not None and len({a % r for a in axes if -r <= a < r}) < len(
            [a for a in axes if -r <= a < r])
        inputs = [x] if axes is None else [x, np.array(axes, np.int64)]
        check_against_reference("Squeeze", inputs, None, opset=OPSET, const=[1],
                                reference_fails_ok=repeated)
