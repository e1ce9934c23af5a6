"""RandomNormalLike (and RandomUniformLike, whose rule file is its twin):
rules/RandomNormalLike.lp on data cases; the kernel's shapes, types and seeding."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case, infer, random_array, reference_outputs

OPSET = 18
CASES = {
    "the input's shape and type": ({"inputs": [("f16", "[b, s]")]},
                                   {"y0": "[b, s]", "dtypes": {"y0": "f16"}}),
    "dtype given": ({"inputs": [("i64", "[n]")], "attrs": {"dtype": 1}},
                    {"y0": "[n]", "dtypes": {"y0": "f32"}}),
    "backward": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[4, n]"}}}, {"x0": "[4, n]"}),
    "an integer input without dtype": ({"inputs": [("i64", "[n]")]}, "error"),
    "an integer dtype": ({"inputs": ["[n]"], "attrs": {"dtype": 6}}, "error"),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
}


@pytest.mark.parametrize("op", ["RandomNormalLike", "RandomUniformLike"])
@pytest.mark.parametrize("name", CASES)
def test_case(op, name):
    spec, expected = CASES[name]
    check_case(op, {"opset": OPSET, **spec}, expected)


@pytest.mark.parametrize("op", ["RandomNormalLike", "RandomUniformLike"])
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.sampled_from([None, 1, 11]),
       st.sampled_from(["f32", "f16"]), st.none() | st.floats(0, 100))
def test_matches_reference(op, shape, dtype, src, seed):
    attrs = ({} if dtype is None else {"dtype": dtype}) | ({} if seed is None else {"seed": seed})
    x = random_array(shape, src)
    (want,) = reference_outputs(op, [x], attrs, opset=OPSET)
    kernel = load_kernel(op)(attrs)
    (got,) = kernel(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    sol = infer(op, [(src, list(shape))], attrs, opset=OPSET)
    assert sol.shape("y0") == "[" + ", ".join(map(str, shape)) + "]"
    assert sol.dtype("y0") == {np.float32: "f32", np.float16: "f16",
                               np.float64: "f64"}[got.dtype.type]
    if seed is not None:
        assert np.array_equal(kernel(x)[0], got)
