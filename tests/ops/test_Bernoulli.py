"""Bernoulli: rules/Bernoulli.lp on data cases; the kernel's shapes, types and seeding."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import infer, reference_outputs
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "the input's shape and type": ({"inputs": [("f64", "[b, s]")]},
                                   {"y0": "[b, s]", "dtypes": {"y0": "f64"}}),
    "dtype given": ({"inputs": ["[n]"], "attrs": {"dtype": 9}},
                    {"y0": "[n]", "dtypes": {"y0": "bool"}}),
    "backward": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[4, n]"}}}, {"x0": "[4, n]"}),
    "integer probabilities": ({"inputs": [("i64", "[n]")], "attrs": {"dtype": 1}}, "error"),
    "a string dtype": ({"inputs": ["[n]"], "attrs": {"dtype": 8}}, "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
}


test_case = case_test("Bernoulli", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3),
       st.sampled_from([None, 1, 7, 9, 11]), st.none() | st.floats(0, 100),
       st.integers(0, 2**32 - 1))
def test_matches_reference(shape, dtype, seed, draw):
    attrs = ({} if dtype is None else {"dtype": dtype}) | ({} if seed is None else {"seed": seed})
    x = np.random.default_rng(draw).uniform(0, 1, shape).astype(np.float32)
    (want,) = reference_outputs("Bernoulli", [x], attrs, opset=OPSET)
    kernel = load_kernel("Bernoulli")(attrs)
    (got,) = kernel(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert set(np.unique(got.astype(np.float64))) <= {0.0, 1.0}
    sol = infer("Bernoulli", [list(shape)], attrs, opset=OPSET)
    assert sol.shape("y0") == "[" + ", ".join(map(str, shape)) + "]"
    if seed is not None:
        assert np.array_equal(kernel(x)[0], got)


def test_certain_probabilities():
    x = np.array([0.0, 1.0, 1.0, 0.0], np.float32)
    (y,) = load_kernel("Bernoulli")({"dtype": 7})(x)
    assert y.tolist() == [0, 1, 1, 0]
