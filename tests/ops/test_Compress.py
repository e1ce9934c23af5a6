"""Compress: rules/Compress.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import infer, random_array, reference_outputs
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "axis: the other axes are kept": ({"inputs": ["[b, s, d]", ("bool", "[n]")],
                                       "attrs": {"axis": 1}}, {"y0": "[b, _c1, d]"}),
    "negative axis": ({"inputs": ["[b, s]", ("bool", "[n]")], "attrs": {"axis": -2}},
                      {"y0": "[_c1, s]"}),
    "no axis: a vector": ({"inputs": ["[b, s]", ("bool", "[n]")]}, {"y0": "[_c1]"}),
    # a constant condition: the count of its true elements
    "a constant condition": (
        {"inputs": ["[3, 2]", np.array([True, False, True])], "attrs": {"axis": 0}},
        {"y0": "[2, 2]"}),
    "a constant condition shorter than the axis": (
        {"inputs": ["[b, 5]", np.array([False, True])], "attrs": {"axis": 1}},
        {"y0": "[b, 1]"}),
    "no axis, a constant condition": (
        {"inputs": ["[2, 2]", np.array([True, False, True, True])]}, {"y0": "[3]"}),
    # (longer than the axis: the runtimes refuse or cut it; not counted)
    "a constant condition longer than the axis": (
        {"inputs": ["[b, 2]", np.array([True, True, True])], "attrs": {"axis": 1}},
        {"y0": "[b, _c1]"}),
    "dtype kept": ({"inputs": [("i64", "[4]"), ("bool", "[4]")], "attrs": {"axis": 0}},
                   {"y0": "[_c1]", "dtypes": {"y0": "i64"}}),
    "axis out of range": ({"inputs": ["[b, s]", ("bool", "[n]")], "attrs": {"axis": 2}},
                          "error"),
    "condition of rank 2": ({"inputs": ["[b, s]", ("bool", "[1, n]")], "attrs": {"axis": 0}},
                            "error"),
    "int condition": ({"inputs": ["[b, s]", ("i64", "[n]")], "attrs": {"axis": 0}}, "error"),
}


test_case = case_test("Compress", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    # The compressed length depends on the condition's values: every axis the rules do
    # give must be the reference's, and an axis out of range is rejected by both.
    r = len(shape)
    axis = data.draw(st.none() | st.integers(-r - 1, r))
    n = shape[axis] if axis is not None and -r <= axis < r else int(np.prod(shape))
    cond = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), np.bool_)
    attrs = None if axis is None else {"axis": axis}
    x = random_array(shape)
    sol = infer("Compress", [("f32", list(shape)), ("bool", [n])], attrs, opset=OPSET)
    try:
        (out,) = reference_outputs("Compress", [x, cond], attrs, opset=OPSET)
    except Exception:
        assert sol.status == "error"
        return
    assert sol.status == "ok"
    dims = sol.dims("y0")
    assert len(dims) == out.ndim
    for i, d in enumerate(dims):
        if d.is_int:
            assert d.value == out.shape[i]
        else:
            assert axis is None or i == axis % r  # only the compressed axis is unknown
