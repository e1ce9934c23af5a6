"""Unique: rules/Unique.lp on data cases (a data-dependent count with its range), and
against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import infer, reference_outputs
from tests.ops.cases import case_test

CASES = {
    "flattened: the count is data-dependent, shared by three outputs":
        ({"inputs": ["[b, 3]"], "n_outputs": 4},
         {"y0": "[_1]", "y1": "[_1]", "y2": "[3*b]", "y3": "[_1]",
          "dtypes": {"y0": "f32", "y1": "i64", "y2": "i64", "y3": "i64"}}),
    "slices along an axis": ({"inputs": ["[b, s, 4]"], "attrs": {"axis": 1}, "n_outputs": 4},
                             {"y0": "[b, _1, 4]", "y1": "[_1]", "y2": "[s]", "y3": "[_1]"}),
    "negative axis": ({"inputs": ["[b, s]"], "attrs": {"axis": -2}, "n_outputs": 2},
                      {"y0": "[_1, s]", "y1": "[_1]"}),
    "only Y": ({"inputs": [("i64", "[n]")]}, {"y0": "[_1]", "dtypes": {"y0": "i64"}}),
    # a constant of integers: the count of its distinct elements
    "a constant": ({"inputs": [np.array([[2, 1], [1, 3]], np.int64)], "n_outputs": 4},
                   {"y0": "[3]", "y1": "[3]", "y2": "[4]", "y3": "[3]"}),
    # with an axis: the count of its distinct slices
    "a constant, slices": ({"inputs": [np.array([[2, 1], [2, 1]], np.int64)],
                            "attrs": {"axis": 0}, "n_outputs": 4},
                           {"y0": "[1, 2]", "y1": "[1]", "y2": "[2]", "y3": "[1]"}),
    "a constant, columns": ({"inputs": [np.array([[2, 1, 2], [1, 1, 1]], np.int64)],
                             "attrs": {"axis": -1}}, {"y0": "[2, 2]"}),  # (2, 1) twice
    "a constant, empty slices": ({"inputs": [np.zeros((3, 0), np.int64)],
                                  "attrs": {"axis": 0}}, {"y0": "[1, 0]"}),
    "axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axis": 2}}, "error"),
    "a scalar has no axis": ({"inputs": ["[]"], "attrs": {"axis": 0}}, "error"),
    "two inputs": ({"inputs": ["[n]", "[n]"]}, "error"),
}


test_case = case_test("Unique", CASES)


def test_the_count_is_bounded_by_the_input():
    sol = infer("Unique", ["[b, 3]"], n_outputs=4)
    assert sol.to_json()["ranges"] == {"_1": [0, "3*b"]}
    sol = infer("Unique", ["[b, 5]"], {"axis": 1}, n_outputs=2)
    assert sol.to_json()["ranges"] == {"_1": [0, 5]}


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data(), st.booleans())
def test_matches_reference(shape, data, with_axis):
    rng = np.random.default_rng(len(shape))
    x = rng.integers(0, 3, size=shape).astype(np.float32)  # repeats
    attrs = {"axis": data.draw(st.integers(-len(shape), len(shape) - 1))} if with_axis else {}
    want = reference_outputs("Unique", [x], attrs, n_outputs=4)
    sol = infer("Unique", [list(shape)], attrs, n_outputs=4)
    assert sol.status == "ok"
    for k, out in enumerate(want):
        dims = sol.dims(f"y{k}")
        assert len(dims) == out.ndim
        for d, n in zip(dims, out.shape):
            # known dims are right; the data-dependent count is a fresh name within range
            if d.is_int:
                assert d.value == n
            else:
                assert str(d).startswith("_")
                lo, hi = sol.to_json()["ranges"][str(d)]
                assert lo <= n <= hi


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_a_constant_matches_reference(shape, data):
    # every element known: the distinct elements (slices along the axis) are counted
    from shape_logic.testing import check_against_reference

    x = np.array(data.draw(st.lists(st.integers(-1, 1), min_size=int(np.prod(shape)),
                                    max_size=int(np.prod(shape)))), np.int64).reshape(shape)
    axis = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    attrs = {} if axis is None else {"axis": axis}
    check_against_reference("Unique", [x], attrs, n_outputs=4, const=[0], symbolic=False)
