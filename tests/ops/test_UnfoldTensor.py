"""UnfoldTensor (com.microsoft): rules/UnfoldTensor.lp on data cases, and the rules and the
kernel against onnxruntime on random shapes, axes, sizes and steps."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime, ort_contrib


def case(inputs, attrs, outputs=None):
    spec = {"inputs": inputs, "attrs": attrs, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "the last axis by default": (case(["[b, t]"], {"size": 4}),
                                 {"y0": "[b, t - 3, 4]"}),
    "a middle axis, step 2": (case(["[b, t, c]"], {"size": 3, "dim": 1, "step": 2}),
                              {"y0": "[b, (t + 1)//2 - 1, c, 3]"}),
    "the front, negative": (case(["[t, c]"], {"size": 2, "dim": -2, "step": 3}),
                            {"y0": "[(t + 1)//3, c, 2]"}),
    "integers": (case(["[2, 7, 3]"], {"size": 3, "dim": 1, "step": 2}),
                 {"y0": "[2, 3, 3, 3]"}),
    "one window of the whole axis": (case(["[2, 7]"], {"size": 7}), {"y0": "[2, 1, 7]"}),
    "a step past the axis: one window": (case(["[2, 7]"], {"size": 3, "step": 10}),
                                         {"y0": "[2, 1, 3]"}),
    "a vector": (case(["[5]"], {"size": 2, "step": 2}), {"y0": "[2, 2]"}),
    "backward: a count of windows leaves the axis open": (
        case(["[b, t]"], {"size": 5, "dim": 1, "step": 2}, {"y0": {"shape": "[b, 3, 5]"}}),
        {"x0": "[b, t]", "y0": "[b, 3, 5]"}),
    "backward: step 1 gives the axis": (
        case(["[b, t]"], {"size": 5, "dim": 1}, {"y0": {"shape": "[b, 3, 5]"}}),
        {"x0": "[b, 7]", "bindings": {"t": 7}}),
    "backward: x's rank from the output": (case(["X"], {"size": 2}, {"y0": {"shape": "[4, 3, 2]"}}),
                                           {"x0": "[4, _1]"}),
    "int64 kept": (case([("i64", "[n, 6]")], {"size": 2, "step": 2}),
                   {"y0": "[n, 3, 2]", "dtypes": {"y0": "i64"}}),
    "f16 (onnxruntime's CUDA kernel)": (case([("f16", "[n, 6]")], {"size": 2}),
                                        {"dtypes": {"y0": "f16"}}),
    "the window larger than its axis": (case(["[2, 7]"], {"size": 8}), "error"),
    "the output's window is not the size": (
        case(["[b, t]"], {"size": 5}, {"y0": {"shape": "[b, 3, 4]"}}), "error"),
    "an empty axis": (case(["[2, 0]"], {"size": 1}), "error"),
    "size 0": (case(["[2, 7]"], {"size": 0}), "error"),
    "a negative size": (case(["[2, 7]"], {"size": -1}), "error"),
    "step 0": (case(["[2, 7]"], {"size": 2, "step": 0}), "error"),
    "no size": (case(["[2, 7]"], {"dim": 0}), "error"),
    "dim out of range": (case(["[2, 7]"], {"size": 2, "dim": 2}), "error"),
    "dim out of range, negative": (case(["[2, 7]"], {"size": 2, "dim": -3}), "error"),
    "a scalar": (case(["[]"], {"size": 1}), "error"),
    "a size beyond clingo's integers": (case(["[2, 7]"], {"size": 5000000000}), "error"),
    "float8 (not in the schema's types)": (case([("f8e4m3fn", "[2, 7]")], {"size": 2}),
                                           "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("UnfoldTensor", spec, expected)


def test_a_symbolic_axis_is_at_least_the_size():
    from shape_logic.testing import infer

    sol = infer("UnfoldTensor", ["[b, t]"], {"size": 4}, domain=MS)
    assert sol.to_json()["floors"] == {"t": 4}
    sol = infer("UnfoldTensor", ["[b, t]"], {"size": 5, "step": 2}, domain=MS,
                outputs={"y0": {"shape": "[b, 3, 5]"}})
    assert sol.to_json()["ranges"] == {"t": [9, 10]}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 6), min_size=1, max_size=4),
       data=st.data(), wrong=st.integers(0, 9),
       dtype=st.sampled_from([np.float32, np.float64, np.int32, np.int64]))
def test_matches_onnxruntime(seed, shape, data, wrong, dtype):
    """Mostly a valid node (size 1..d, step 1..3, the axis negative or not); wrong = 7, 8, 9:
    the axis one past either end, a size of 0 or one past the axis, step 0 (the dtypes
    onnxruntime's CPU kernel copies)."""
    r = len(shape)
    dim = data.draw(st.sampled_from([-r - 1, r]) if wrong == 7 else st.integers(-r, r - 1))
    d = shape[dim] if wrong != 7 else 3
    size = data.draw(st.sampled_from([0, d + 1]) if wrong == 8 else st.integers(1, d))
    step = 0 if wrong == 9 else data.draw(st.integers(1, 3))
    x = (np.random.default_rng(seed).standard_normal(shape) * 10).astype(dtype)
    check_against_onnxruntime("UnfoldTensor", [x], {"dim": dim, "size": size, "step": step},
                              rtol=0, atol=0)


@pytest.mark.parametrize("shape, attrs", [((0, 5), {"size": 2}), ((3, 0, 4), {"size": 4}),
                                          ((2, 0), {"size": 1})])
def test_empty_tensors(shape, attrs):
    """Another axis empty: an empty output; the unfolded axis empty: rejected by both."""
    x = np.ones(shape, np.float32)
    want = check_against_onnxruntime("UnfoldTensor", [x], attrs)
    assert (want is None) == (shape == (2, 0))


@pytest.mark.parametrize("attrs", [{"size": 8}, {"size": 0}, {"size": 2, "step": 0},
                                   {"size": 2, "dim": 2}, {"size": 2, "dim": -3}])
def test_onnxruntime_rejects_what_the_rules_reject(attrs):
    x = np.ones((2, 7), np.float32)
    assert check_against_onnxruntime("UnfoldTensor", [x], attrs) is None


def test_other_types_are_a_limit_of_onnxruntimes_cpu_kernel():
    """f16, int8, bool: onnxruntime's checks pass and its CPU kernel refuses them at run time
    (its CUDA kernel takes them); the rules accept them, the kernel unfolds them."""
    from shape_logic.kernels import load_kernel

    x = np.arange(12).reshape(2, 6).astype(np.float16)
    with pytest.raises(Exception, match="Unsupported data type"):
        ort_contrib("UnfoldTensor", [x], {"size": 2})
    (y,) = load_kernel("UnfoldTensor")({"size": 2}, domain=MS)(x)
    want = ort_contrib("UnfoldTensor", [x.astype(np.float32)], {"size": 2})[0]
    assert y.dtype == np.float16 and np.array_equal(y.astype(np.float32), want)
