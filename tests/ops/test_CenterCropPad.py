"""CenterCropPad: rules/CenterCropPad.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, np.int64)


CASES = {
    "every axis": ({"inputs": ["[h, w, 3]", i64([10, 8, 3])]}, {"y0": "[10, 8, 3]"}),
    "listed axes, the others kept": ({"inputs": ["[c, h, w]", i64([10, 8])],
                                      "attrs": {"axes": [-2, -1]}}, {"y0": "[c, 10, 8]"}),
    "a runtime shape: fresh sizes": ({"inputs": ["[c, h, w]", ("i64", "S")],
                                      "attrs": {"axes": [1, 2]}},
                                     {"y0": "[c, _1, _2]", "x1": "[2]"}),
    "int32 sizes, X's type": ({"inputs": [("u8", "[4, 4]"), np.array([2, 6], np.int32)]},
                              {"y0": "[2, 6]", "dtypes": {"y0": "u8"}}),
    "without axes, the shape has X's rank": ({"inputs": ["X", ("i64", "[3]")]},
                                             {"x0": "[_1, _2, _3]"}),
    "sizes of another count": ({"inputs": ["[4, 4]", i64([2, 2, 2])]}, "error"),
    "an axis out of range": ({"inputs": ["[4, 4]", i64([2])], "attrs": {"axes": [2]}}, "error"),
    "a repeated axis": ({"inputs": ["[4, 4]", i64([2, 3])], "attrs": {"axes": [0, -2]}},
                        "error"),
    "a negative size": ({"inputs": ["[4, 4]", i64([2, -1])]}, "error"),
    "float sizes": ({"inputs": ["[4, 4]", ("f32", "[2]")]}, "error"),
}


test_case = case_test("CenterCropPad", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    r = len(shape)
    axes = data.draw(st.none() | st.lists(st.integers(-r, r - 1), min_size=1, max_size=r,
                                          unique_by=lambda a: a % r))
    n = r if axes is None else len(axes)
    sizes = i64([data.draw(st.integers(1, 8)) for _ in range(n)])
    check_against_reference("CenterCropPad", [random_array(shape), sizes],
                            None if axes is None else {"axes": axes}, opset=OPSET, const=[1])
