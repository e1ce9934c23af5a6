"""Slice: rules/Slice.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case, random_array
from tests.ops.cases import case_test

OPSET = 18
MAX = 2**63 - 1  # INT64_MAX: "to the end"
MIN = -(2**63)


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "[1:]": ({"inputs": ["[b, s]", i64(1), i64(MAX), i64(1)]}, {"y0": "[b, s - 1]"}),
    "[:-1]": ({"inputs": ["[b, s]", i64(0), i64(-1), i64(1)]}, {"y0": "[b, s - 1]"}),
    # INT64_MAX is past any axis, also one whose expression has no bound under it (BEiT)
    "[1:] of a product": ({"inputs": ["[b*s + 1, s]", i64(1), i64(MAX), i64(0)]},
                          {"y0": "[b*s, s]"}),
    "[-2:] of a product": ({"inputs": ["[b*s*h]", i64(-2), i64(MAX), i64(0)]},
                           {"y0": "[min(2, b*h*s)]"}),
    "[1:2^62] of a product: clamped": ({"inputs": ["[b*s]", i64(1), i64(2**62), i64(0)]},
                                       {"y0": "[min(4611686018427387904, b*s) - 1]"}),
    "[::2]": ({"inputs": ["[b, s]", i64(0), i64(MAX), i64(1), i64(2)]},
              {"y0": "[b, (s + 1)//2]"}),
    "[::-1]": ({"inputs": ["[b, s]", i64(-1), i64(MIN), i64(1), i64(-1)]}, {"y0": "[b, s]"}),
    "[::-1] with -INT64_MAX": ({"inputs": ["[b, s]", i64(-1), i64(-MAX), i64(1), i64(-1)]},
                               {"y0": "[b, s]"}),
    "[::-2]": ({"inputs": ["[b, s]", i64(-1), i64(MIN), i64(1), i64(-2)]},
               {"y0": "[b, (s + 1)//2]"}),
    "[-2:]": ({"inputs": ["[b, s]", i64(-2), i64(MAX), i64(1)]}, {"y0": "[b, min(2, s)]"}),
    "[2:5] on a symbol: clamped": ({"inputs": ["[b, s]", i64(2), i64(5), i64(1)]},
                                   {"y0": "[b, max(0, min(5, s) - 2)]"}),
    "[2:] on a symbol: may be empty": ({"inputs": ["[b, s]", i64(2), i64(MAX), i64(-1)]},
                                       {"y0": "[b, max(0, s - 2)]"}),
    "default axes": ({"inputs": ["[b, s, 8]", i64(0, 1), i64(MAX, MAX)]},
                     {"y0": "[b, s - 1, 8]"}),
    "negative axes": ({"inputs": ["[b, s, 8]", i64(2), i64(6), i64(-1)]}, {"y0": "[b, s, 4]"}),
    "starts out of bounds": ({"inputs": ["[4, 10]", i64(20), i64(30), i64(1)]},
                             {"y0": "[4, 0]"}),
    "ends out of bounds": ({"inputs": ["[4, 10]", i64(1), i64(1000), i64(1)]}, {"y0": "[4, 9]"}),
    "negative step, clamped start": ({"inputs": ["[10]", i64(20), i64(-20), i64(0), i64(-3)]},
                                     {"y0": "[4]"}),
    "negative step, empty": ({"inputs": ["[10]", i64(-3), i64(MAX), i64(0), i64(-2)]},
                             {"y0": "[0]"}),
    "negative step from before the beginning: clamped to 0 (numpy: empty)": (
        {"inputs": ["[3]", i64(-5), i64(-MAX), i64(0), i64(-1)]}, {"y0": "[1]"}),
    "empty axis, negative step": ({"inputs": ["[0]", i64(-1), i64(MIN), i64(0), i64(-1)]},
                                  {"y0": "[0]"}),
    "symbolic end (from a shape computation)": (
        {"inputs": ["[b, s]", i64(0), ("i64", "[1]"), i64(1)]}, {"y0": "[b, _1]"}),
    "attributes (opset 9)": ({"inputs": ["[b, s]"], "opset": 9,
                              "attrs": {"starts": [1], "ends": [MAX], "axes": [1]}},
                             {"y0": "[b, s - 1]"}),
    "attributes, default axes (opset 1)": ({"inputs": ["[b, 8]"], "opset": 1,
                                            "attrs": {"starts": [0, 2], "ends": [MAX, -2]}},
                                           {"y0": "[b, 4]"}),
    "runtime starts: the other axes": ({"inputs": ["[b, s, 8]", ("i64", "[1]"),
                                                   ("i64", "[1]"), i64(1)]},
                                       {"y0": "[b, _1, 8]"}),
    "backward from the output": ({"inputs": ["[b, s]", i64(1), i64(MAX), i64(1)],
                                  "outputs": {"y0": {"shape": "[b, 9]"}}},
                                 {"x0": "[b, 10]", "bindings": {"s": 10}}),
    "starts of a symbolic length: as long as the ends": (
        {"inputs": ["[b, s]", ("i64", "[k]"), i64(3), i64(1)]},
        {"y0": "[b, _1]", "bindings": {"k": 1}}),
    "dtype kept": ({"inputs": [("i64", "[5]"), i64(1), i64(3)]},
                   {"y0": "[2]", "dtypes": {"y0": "i64"}}),
    "zero step": ({"inputs": ["[b, s]", i64(0), i64(MAX), i64(1), i64(0)]}, "error"),
    "axis out of range": ({"inputs": ["[b, s]", i64(0), i64(1), i64(2)]}, "error"),
    "repeated axis": ({"inputs": ["[b, s]", i64(0, 0), i64(1, 1), i64(1, -1)]}, "error"),
    "starts and ends differ in length": ({"inputs": ["[b, s]", i64(0, 0), i64(1)]}, "error"),
    "more starts than axes of X": ({"inputs": ["[b, s]", i64(0, 0, 0), i64(1, 1, 1)]},
                                   "error"),
    "steps of another length": ({"inputs": ["[b, s]", i64(0), i64(1), i64(0), i64(1, 1)]},
                                "error"),
    "too few inputs (opset 10)": ({"inputs": ["[b, s]", i64(0)]}, "error"),
    "missing ends attribute (opset 9)": ({"inputs": ["[b, s]"], "opset": 9,
                                          "attrs": {"starts": [1]}}, "error"),
}


test_case = case_test("Slice", CASES, OPSET)


def test_stepping_down_to_the_start_is_empty():
    # first index max(s - MAX, 0) = 0, stop min(0, s - 1) = 0: nothing is taken
    check_case("Slice", {"opset": OPSET,
                         "inputs": ["[s]", i64(-MAX), i64(0), i64(0), i64(-1)]}, {"y0": "[0]"})


def value_graph(starts, ends, steps=None):
    nodes = [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
             {"op": "Slice", "inputs": ["sh", "st", "en", "ax"] + (["sp"] if steps else []),
              "outputs": ["v"]},
             {"op": "Reshape", "inputs": ["d", "v"], "outputs": ["r"]}]
    inits = {"st": {"dtype": "i64", "shape": [1], "data": [starts]},
             "en": {"dtype": "i64", "shape": [1], "data": [ends]},
             "ax": {"dtype": "i64", "shape": [1], "data": [0]}}
    if steps:
        inits["sp"] = {"dtype": "i64", "shape": [1], "data": [steps]}
    return {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, h, 64]"}, "d": {"shape": "D"}},
            "initializers": inits, "nodes": nodes}


@pytest.mark.parametrize("starts, ends, steps, want", [
    (0, 2, None, "[b, s]"),
    (-2, MAX, None, "[h, 64]"),
    (1, -1, None, "[s, h]"),
    (-1, MIN, -2, "[64, s]"),
])
def test_values_sliced(starts, ends, steps, want):
    """Shape -> Slice -> Reshape: slicing a shape vector selects its dims."""
    sol = solve(value_graph(starts, ends, steps))
    assert sol.status == "ok"
    assert sol.shape("r") == want


def test_the_last_row_of_a_thrice_pooled_axis():
    """x[:, -1:] (end INT64_MAX) of an axis pooled three times, as DETR's position embedding
    takes it: the bounds of MAX - (((w + 1)//2 + 1)//2 + 1)//2 refined on its floor built
    4*MAX, past the arithmetic's limit, and the length was a fresh name with a warning.
    (The pooled axis is one division now, (w + 7)//8: ops._merged_floor.)"""
    pool = {"kernel_shape": [3], "strides": [2], "pads": [1, 1]}
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, w]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]},
                          "st": {"dtype": "i64", "shape": [1], "data": [-1]},
                          "en": {"dtype": "i64", "shape": [1], "data": [MAX]},
                          "ax": {"dtype": "i64", "shape": [1], "data": [2]}},
         "nodes": [{"op": "Unsqueeze", "inputs": ["x", "one"], "outputs": ["p0"]},
                   *({"op": "MaxPool", "inputs": [f"p{k}"], "outputs": [f"p{k + 1}"],
                      "attrs": pool} for k in range(3)),
                   {"op": "Slice", "inputs": ["p3", "st", "en", "ax"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    assert sol.shape("p3") == "[b, 1, (w + 7)//8]"
    assert sol.shape("y") == "[b, 1, 1]"


BOUNDS = st.integers(-8, 8) | st.sampled_from([MAX, -MAX, MIN])


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    # starts and ends anywhere (out of bounds, INT64_MAX/MIN), steps of either sign and
    # zero, axes from -r-1..r (out of range: the reference raises, so must we).  The
    # reference lets a repeated axis overwrite the earlier one, which ONNX forbids: those
    # are cases above.  The symbolic check (every input dim a symbol, then evaluated) is
    # skipped when a dim is 0: the rules rely on symbols being >= 1 (min(b, s - 1) = b - ..).
    r = len(shape)
    symbolic = 0 not in shape
    k = data.draw(st.integers(1, r))
    axes = data.draw(st.lists(st.integers(-r - 1, r), min_size=k, max_size=k))
    assume(len({a % r if -r <= a < r else a for a in axes}) == k)
    starts = data.draw(st.lists(BOUNDS, min_size=k, max_size=k))
    ends = data.draw(st.lists(BOUNDS, min_size=k, max_size=k))
    x = random_array(shape)
    if data.draw(st.booleans()):
        steps = data.draw(st.lists(st.integers(-3, 3), min_size=k, max_size=k))
        # stepping down from a start before the beginning: ONNX clamps it to 0 and takes
        # that element (as onnxruntime and onnx's shape inference do), numpy takes nothing
        assume(not any(sp < 0 and -r <= a < r and b < -shape[a]
                       for sp, a, b in zip(steps, axes, starts)))
        check_against_reference("Slice", [x, i64(*starts), i64(*ends), i64(*axes), i64(*steps)],
                                opset=OPSET, const=[1, 2, 3, 4], symbolic=symbolic)
    else:  # opset 9: attributes, step 1
        check_against_reference("Slice", [x], {"starts": starts, "ends": ends, "axes": axes},
                                opset=9, symbolic=symbolic)
