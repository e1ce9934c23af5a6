"""RandomNormal (and RandomUniform, whose rule file is its twin): rules/RandomNormal.lp on
data cases; the kernel's shapes, types and seeding."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case, infer, reference_outputs

OPSET = 18
CASES = {
    "the shape attribute, float32": ({"inputs": [], "attrs": {"shape": [2, 3]}},
                                     {"y0": "[2, 3]", "dtypes": {"y0": "f32"}}),
    "dtype": ({"inputs": [], "attrs": {"shape": [4], "dtype": 11}}, {"dtypes": {"y0": "f64"}}),
    "a scalar": ({"inputs": [], "attrs": {"shape": []}}, {"y0": "[]"}),
    "an integer dtype": ({"inputs": [], "attrs": {"shape": [2], "dtype": 7}}, "error"),
    "no shape": ({"inputs": []}, "error"),
    "a negative size": ({"inputs": [], "attrs": {"shape": [2, -1]}}, "error"),
    "an input": ({"inputs": ["[2]"], "attrs": {"shape": [2]}}, "error"),
    "output annotation clashes": ({"inputs": [], "attrs": {"shape": [2, 3]},
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
}


@pytest.mark.parametrize("op", ["RandomNormal", "RandomUniform"])
@pytest.mark.parametrize("name", CASES)
def test_case(op, name):
    spec, expected = CASES[name]
    check_case(op, {"opset": OPSET, **spec}, expected)


@pytest.mark.parametrize("op", ["RandomNormal", "RandomUniform"])
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3),
       st.sampled_from([None, 1, 10, 11]), st.none() | st.floats(0, 100))
def test_matches_reference(op, shape, dtype, seed):
    # the reference's draws are its own: shapes and types agree, and a seed repeats ours
    # (the reference takes seeds in 0..2^32 - 1 and no empty shape: the cases above)
    attrs = {"shape": shape} | ({} if dtype is None else {"dtype": dtype}) | \
        ({} if seed is None else {"seed": seed})
    (want,) = reference_outputs(op, [], attrs, opset=OPSET)
    kernel = load_kernel(op)(attrs)
    (got,) = kernel()
    assert got.shape == want.shape and got.dtype == want.dtype
    sol = infer(op, [], attrs, opset=OPSET)
    assert sol.shape("y0") == "[" + ", ".join(map(str, shape)) + "]"
    assert sol.dtype("y0") == {np.float32: "f32", np.float16: "f16",
                               np.float64: "f64"}[got.dtype.type]
    if seed is not None:
        assert np.array_equal(kernel()[0], got)
