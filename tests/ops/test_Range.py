"""Range: rules/Range.lp on data cases, and against onnx's reference; onnxruntime's
com.microsoft Range on data cases and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, dtype=np.int64)


def f32(v):
    return np.array(v, dtype=np.float32)


CASES = {
    "known": ({"inputs": [i64(1), i64(10), i64(3)]}, {"y0": "[3]", "dtypes": {"y0": "i64"}}),
    "negative delta": ({"inputs": [i64(10), i64(1), i64(-3)]}, {"y0": "[3]"}),
    "empty": ({"inputs": [i64(10), i64(1), i64(1)]}, {"y0": "[0]"}),
    "int32": ({"inputs": [np.array(0, np.int32), np.array(5, np.int32),
                          np.array(2, np.int32)]}, {"y0": "[3]", "dtypes": {"y0": "i32"}}),
    "float values that are integers": ({"inputs": [f32(1), f32(10), f32(3)]},
                                       {"y0": "[3]", "dtypes": {"y0": "f32"}}),
    "float values that are not integers: unknown": ({"inputs": [f32(0.5), f32(10), f32(3)]},
                                                     {"y0": "[_1]"}),
    "runtime limit: unknown length": ({"inputs": [i64(0), ("i64", "[]"), i64(1)]},
                                      {"y0": "[_1]"}),
    "zero delta": ({"inputs": [i64(1), i64(10), i64(0)]}, "error"),
    # a one-element vector is taken as a scalar (onnxruntime and onnx's reference do; ONNX's
    # AffineGrid function passes them), a longer one or a higher rank is not
    "one-element vector start": ({"inputs": [np.array([1], np.int64), i64(10), i64(3)]},
                                 {"y0": "[3]"}),
    "two-element vector start": ({"inputs": [np.array([1, 2], np.int64), i64(10), i64(3)]},
                                 "error"),
    "[1, 1] start": ({"inputs": [np.array([[1]], np.int64), i64(10), i64(3)]}, "error"),
    "dtypes differ": ({"inputs": [i64(1), np.array(10, np.int32), i64(3)]}, "error"),
    "two inputs": ({"inputs": [i64(1), i64(10)]}, "error"),
    "an absent delta": ({"inputs": [i64(1), i64(10), None]}, "error"),
}


test_case = case_test("Range", CASES, OPSET)


def range_to(start, delta, shape="[b, s, 768]"):
    """Range(start, Shape(x)[1], delta), then Reshape by the range of a short one."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": shape}, "d": {"shape": "D"}},
         "initializers": {"i": {"dtype": "i64", "shape": [], "data": 1},
                          "st": {"dtype": "i64", "shape": [], "data": start},
                          "dl": {"dtype": "i64", "shape": [], "data": delta}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "i"], "outputs": ["lim"]},
                   {"op": "Range", "inputs": ["st", "lim", "dl"], "outputs": ["pos"]}]}
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    return sol.shape("pos")


def test_symbolic_limit():
    """Position ids: Range(0, seq_len, 1) where seq_len comes from Shape -> Gather."""
    assert range_to(0, 1) == "[s]"
    assert range_to(1, 1) == "[s - 1]"
    assert range_to(0, 2) == "[(s + 1)//2]"
    assert range_to(0, 4, "[b, 10, 768]") == "[3]"


def test_values_of_a_short_range():
    g = {"opset": OPSET, "inputs": {"d": {"shape": "D"}},
         "initializers": {"a": {"dtype": "i64", "shape": [], "data": 2},
                          "b": {"dtype": "i64", "shape": [], "data": 8},
                          "c": {"dtype": "i64", "shape": [], "data": 3}},
         "nodes": [{"op": "Range", "inputs": ["a", "b", "c"], "outputs": ["r"]},
                   {"op": "Reshape", "inputs": ["d", "r"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[2, 5]"


@settings(max_examples=20, deadline=None)
@given(st.integers(-6, 6), st.integers(-6, 6), st.integers(-3, 3),
       st.sampled_from(["i64", "i32", "f32"]))
def test_matches_reference(start, limit, delta, dtype):
    # constant inputs (with runtime ones the length is unknown: a case above); a zero
    # delta: the reference raises, so must we
    t = {"i64": np.int64, "i32": np.int32, "f32": np.float32}[dtype]
    arrays = [np.array(v, t) for v in (start, limit, delta)]
    check_against_reference("Range", arrays, opset=OPSET, const=[0, 1, 2])


# onnxruntime's com.microsoft Range: ONNX's at any opset, but delta is optional (1 where
# absent); the type one of f32, f64, i16, i32, i64
MS_CASES = {
    "no delta: 1": ({"inputs": [i64(1), i64(10)], "opset": 9},
                    {"y0": "[9]", "dtypes": {"y0": "i64"}}),
    "an absent delta": ({"inputs": [i64(10), i64(1), None]}, {"y0": "[0]"}),
    "a delta": ({"inputs": [i64(10), i64(1), i64(-3)]}, {"y0": "[3]"}),
    "int16": ({"inputs": [np.array(0, np.int16), np.array(5, np.int16)]},
              {"y0": "[5]", "dtypes": {"y0": "i16"}}),
    "runtime limit: unknown length": ({"inputs": [i64(0), ("i64", "[]")]}, {"y0": "[_1]"}),
    "a limit of unknown shape": ({"inputs": [i64(0), ("i64", "L")]}, {"y0": "[_1]"}),
    "zero delta": ({"inputs": [i64(1), i64(10), i64(0)]}, "error"),
    "int8": ({"inputs": [np.array(0, np.int8), np.array(5, np.int8)]}, "error"),
    "float16": ({"inputs": [("f16", "[]"), ("f16", "[]")]}, "error"),
    "dtypes differ": ({"inputs": [i64(1), np.array(10, np.int32)]}, "error"),
    "[1, 1] limit": ({"inputs": [i64(1), np.array([[10]], np.int64)]}, "error"),
    "one input": ({"inputs": [i64(1)]}, "error"),
    "four inputs": ({"inputs": [i64(1), i64(10), i64(1), i64(1)]}, "error"),
}


@pytest.mark.parametrize("name", MS_CASES)
def test_com_microsoft_case(name):
    spec, expected = MS_CASES[name]
    check_case("Range", {"opset": OPSET, **spec, "domain": MS}, expected)


def test_com_microsoft_positions_without_delta():
    """Range(0, Shape(x)[1]) in com.microsoft: the sequence's length."""
    g = {"opset": 13, "inputs": {"x": {"shape": "[b, s, 768]"}},
         "initializers": {"i": {"dtype": "i64", "shape": [], "data": 1},
                          "z": {"dtype": "i64", "shape": [], "data": 0}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "i"], "outputs": ["lim"]},
                   {"op": "Range", "domain": MS, "inputs": ["z", "lim"], "outputs": ["pos"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("pos") == "[s]"


@settings(max_examples=20, deadline=None)
@given(st.integers(-6, 6), st.integers(-6, 6), st.one_of(st.none(), st.integers(-3, 3)),
       st.sampled_from([np.int64, np.int32, np.int16, np.float32, np.float64]),
       st.lists(st.booleans(), min_size=3, max_size=3))
def test_com_microsoft_matches_onnxruntime(start, limit, delta, dtype, vectors):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel:
    constant inputs (integer values: of floats that are not, the rules leave the length
    unknown), each a scalar or a vector of one element, delta absent or given (0: both
    refuse it)."""
    arrays = [np.array([v] if vec else v, dtype)
              for v, vec in zip((start, limit, delta), vectors) if v is not None]
    check_against_onnxruntime("Range", arrays, const=(0, 1, 2))
