"""Unique: rules/Unique.lp on data cases (a data-dependent count with its range), and
against onnx's reference on random shapes; onnxruntime's com.microsoft Unique (x -> y, idx,
counts) on data cases and against onnxruntime on random vectors, NaNs among them."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.graph import dtype_of_array
from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case, infer, reference_outputs
from tests.contrib_ops import MS, ort_contrib, rejected
from tests.ops.cases import case_test

CASES = {
    "flattened: the count is data-dependent, shared by three outputs":
        ({"inputs": ["[b, 3]"], "n_outputs": 4},
         {"y0": "[_c1]", "y1": "[_c1]", "y2": "[3*b]", "y3": "[_c1]",
          "dtypes": {"y0": "f32", "y1": "i64", "y2": "i64", "y3": "i64"}}),
    "slices along an axis": ({"inputs": ["[b, s, 4]"], "attrs": {"axis": 1}, "n_outputs": 4},
                             {"y0": "[b, _c1, 4]", "y1": "[_c1]", "y2": "[s]", "y3": "[_c1]"}),
    "negative axis": ({"inputs": ["[b, s]"], "attrs": {"axis": -2}, "n_outputs": 2},
                      {"y0": "[_c1, s]", "y1": "[_c1]"}),
    "only Y": ({"inputs": [("i64", "[n]")]}, {"y0": "[_c1]", "dtypes": {"y0": "i64"}}),
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
    assert sol.to_json()["ranges"] == {"_c1": [0, "3*b"]}
    sol = infer("Unique", ["[b, 5]"], {"axis": 1}, n_outputs=2)
    assert sol.to_json()["ranges"] == {"_c1": [0, 5]}


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


# ----- onnxruntime's com.microsoft Unique(x) -> y, idx, counts

MS_CASES = {
    "a vector: y and counts share the count, idx is x's length":
        ({"inputs": ["[n]"]}, {"y0": "[_c1]", "y1": "[n]", "y2": "[_c1]",
                               "dtypes": {"y0": "f32", "y1": "i64", "y2": "i64"}}),
    "backward: x's length from idx": ({"inputs": [("i64", "X")],
                                       "outputs": {"y1": {"shape": "[7]"}}},
                                      {"x0": "[7]", "y0": "[_c1]", "dtypes": {"y0": "i64"}}),
    "backward: y from the counts": ({"inputs": ["[n]"], "outputs": {"y2": {"shape": "[c]"}}},
                                    {"y0": "[c]"}),
    "a constant": ({"inputs": [np.array([2, 1, 1, 3, 4, 3], np.int64)]},
                   {"y0": "[4]", "y1": "[6]", "y2": "[4]"}),
    "a float constant of integers (0.0 and -0.0 one element)": (
        {"inputs": [np.array([2, -0.0, 0, 2], np.float32)]}, {"y0": "[2]", "y2": "[2]"}),
    "an empty vector": ({"inputs": [np.zeros(0, np.float32)]}, {"y0": "[0]", "y1": "[0]"}),
    "a matrix": ({"inputs": ["[b, 3]"]}, "error"),
    "a scalar": ({"inputs": ["[]"]}, "error"),
    "ONNX's axis": ({"inputs": ["[n]"], "attrs": {"axis": 0}}, "input error"),
    "ONNX's sorted": ({"inputs": ["[n]"], "attrs": {"sorted": 1}}, "input error"),
    "ONNX's four outputs": ({"inputs": ["[n]"], "n_outputs": 4}, "error"),
    "y alone": ({"inputs": ["[n]"], "n_outputs": 1}, "error"),
    "two inputs": ({"inputs": ["[n]", "[n]"]}, "error"),
}


@pytest.mark.parametrize("name", MS_CASES)
def test_com_microsoft_case(name):
    spec, expected = MS_CASES[name]
    check_case("Unique", {"n_outputs": 3, **spec, "domain": MS}, expected)


def check_contrib(x, const):
    """onnxruntime's outputs are our kernel's (values, order, dtypes); the rules' dims are
    theirs where known (all of them for a constant of integers), else a fresh name whose
    range holds the size."""
    want = ort_contrib("Unique", [x], n_outputs=3, const=(0,) if const else ())
    got = load_kernel("Unique")({}, n_outputs=3, domain=MS)(x)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        np.testing.assert_array_equal(g, w)  # (NaNs at the same places)
    sol = infer("Unique", [x if const else (dtype_of_array(x), list(x.shape))], n_outputs=3,
                domain=MS)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    ranges = sol.to_json().get("ranges", {})
    for k, w in enumerate(want):
        assert sol.dtype(f"y{k}") == dtype_of_array(w)
        (d,) = sol.dims(f"y{k}")
        if d.is_int:
            assert d.value == w.shape[0]
        else:
            lo, hi = ranges[str(d)]
            assert str(d).startswith("_") and k != 1 and lo <= w.shape[0] <= hi
    return sol


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([-1.0, 0.0, -0.0, 1.0, 2.0, 0.5, np.nan, np.inf]),
                max_size=12), st.booleans(), st.booleans())
def test_com_microsoft_matches_onnxruntime(values, const, f16):
    """Values in the order they first occur, each NaN its own; shapes from the length (and
    from the values of a constant: counted where all are integers)."""
    x = np.array(values, np.float16 if f16 else np.float32)
    sol = check_contrib(x, const)
    integers = all(np.isfinite(v) and v == int(v) for v in values)
    # (an empty x has no distinct element: 0..0)
    assert sol.dims("y0")[0].is_int == (const and integers or not values)


@pytest.mark.parametrize("x, attrs, n_outputs", [
    (np.zeros((2, 3), np.float32), {}, 3), (np.float32(1), {}, 3),
    (np.zeros(3, np.float32), {}, 1), (np.zeros(3, np.float32), {"sorted": 0}, 3),
])
def test_com_microsoft_onnxruntime_rejects_what_the_rules_reject(x, attrs, n_outputs):
    with pytest.raises(Exception):  # noqa: B017 - onnxruntime's errors have no common type
        ort_contrib("Unique", [x], attrs, n_outputs=n_outputs)
    assert rejected("Unique", [(dtype_of_array(np.asarray(x)), list(np.shape(x)))], attrs,
                    n_outputs)
