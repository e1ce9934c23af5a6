"""Tile: rules/Tile.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "repeats": ({"inputs": ["[b, s]", i64(2, 3)]}, {"y0": "[2*b, 3*s]"}),
    "repeat 1 keeps": ({"inputs": ["[b, 4]", i64(1, 2)]}, {"y0": "[b, 8]"}),
    "repeat 0 empties": ({"inputs": ["[b, 4]", i64(0, 1)]}, {"y0": "[0, 4]"}),
    "runtime repeats: the rank": ({"inputs": ["X", ("i64", "[3]")]},
                                  {"x0": "[_1, _2, _3]", "y0": "[_4, _5, _6]"}),
    "backward from the output": ({"inputs": ["[b, s]", i64(2, 3)],
                                  "outputs": {"y0": {"shape": "[8, 9]"}}},
                                 {"x0": "[4, 3]", "bindings": {"b": 4, "s": 3}}),
    "dtype kept": ({"inputs": [("i64", "[2]"), i64(3)]}, {"y0": "[6]", "dtypes": {"y0": "i64"}}),
    "repeats shorter than the rank": ({"inputs": ["[b, s]", i64(2)]}, "error"),
    "negative repeat": ({"inputs": ["[b, s]", i64(2, -1)]}, "error"),
    "an odd output size for a doubled axis": ({"inputs": ["[b]", i64(2)],
                                               "outputs": {"y0": {"shape": "[7]"}}}, "error"),
}


test_case = case_test("Tile", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=3), st.data())
def test_matches_reference(shape, data):
    # One repeat count per axis: numpy (the reference) also tiles with fewer or more, which
    # ONNX forbids (a case above); negative counts make both fail, except that numpy
    # tiles an empty tensor with them (onnxruntime rejects them always, as the rules do).
    reps = data.draw(st.lists(st.integers(-1 if 0 not in shape else 0, 3), min_size=len(shape),
                              max_size=len(shape)))
    check_against_reference("Tile", [random_array(shape), i64(*reps).reshape(-1)], opset=OPSET,
                            const=[1])
