"""The tests the cumulative operators (CumSum, CumProd) share, made per operator by its own
test module: its rule file on data cases, and against onnx's reference with our kernel on
random shapes, axes, directions and types."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array


def axis(v):
    return np.array(v, dtype=np.int64)


CASES = {
    "shape kept": ({"inputs": ["[b, s, d]", axis(1)]}, {"y0": "[b, s, d]"}),
    "negative axis": ({"inputs": ["[b, s]", axis(-1)]}, {"y0": "[b, s]"}),
    "exclusive, reverse": ({"inputs": ["[b, s]", axis(0)],
                            "attrs": {"exclusive": 1, "reverse": 1}}, {"y0": "[b, s]"}),
    "runtime axis": ({"inputs": ["[b, s]", ("i64", "[]")]}, {"y0": "[b, s]"}),
    "int32 axis, dtype kept": ({"inputs": [("i32", "[4]"), np.array(0, np.int32)]},
                               {"y0": "[4]", "dtypes": {"y0": "i32"}}),
    "backward": ({"inputs": ["X", axis(0)], "outputs": {"y0": {"shape": "[3, 4]"}}},
                 {"x0": "[3, 4]"}),
    "axis out of range": ({"inputs": ["[b, s]", axis(2)]}, "error"),
    "negative axis out of range": ({"inputs": ["[b, s]", axis(-3)]}, "error"),
    "axis of two elements": ({"inputs": ["[b, s]", np.array([0, 1], np.int64)]}, "error"),
    "a float axis": ({"inputs": ["[b, s]", ("f32", "[]")]}, "error"),
    "bool elements": ({"inputs": [("bool", "[b, s]"), axis(0)]}, "error"),
    "one input": ({"inputs": ["[b, s]"]}, "error"),
}


def cumulative_tests(op: str, opset: int):
    """test_case and test_matches_reference of a cumulative operator (CumSum, CumProd)."""
    @pytest.mark.parametrize("name", CASES)
    def test_case(name):
        spec, expected = CASES[name]
        check_case(op, {"opset": opset, **spec}, expected)

    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.data(), st.booleans(),
           st.booleans(), st.sampled_from(["f32", "f64", "i32", "i64"]))
    def test_matches_reference(shape, data, exclusive, reverse, dtype):
        # axes from -r-1..r: out of range, the reference raises, so must we
        r = len(shape)
        a = data.draw(st.integers(-r - 1, r))
        check_against_reference(op, [random_array(shape, dtype), axis(a)],
                                {"exclusive": int(exclusive), "reverse": int(reverse)},
                                opset=opset, const=[1])

    return test_case, test_matches_reference
