"""RandomUniform: rules/RandomUniform.lp (tests/ops/test_RandomNormal.py runs the same cases
on both); here the draws' range."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case


def test_shape_and_type():
    check_case("RandomUniform", {"inputs": [], "attrs": {"shape": [3, 1], "dtype": 10}},
               {"y0": "[3, 1]", "dtypes": {"y0": "f16"}})


@settings(max_examples=15, deadline=None)
@given(st.floats(-5, 5), st.floats(0.1, 5), st.integers(0, 1000))
def test_draws_in_range(low, width, seed):
    (y,) = load_kernel("RandomUniform")({"shape": [50], "low": low, "high": low + width,
                                          "seed": float(seed)})()
    assert y.dtype == np.float32 and np.all(y >= np.float32(low))
    assert np.all(y <= np.float32(low + width))
