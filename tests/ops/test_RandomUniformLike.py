"""RandomUniformLike: rules/RandomUniformLike.lp (tests/ops/test_RandomNormalLike.py runs
the same cases on both); here the draws' range."""
import numpy as np

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case


def test_shape_and_type():
    check_case("RandomUniformLike", {"inputs": [("f64", "[b, 2]")]},
               {"y0": "[b, 2]", "dtypes": {"y0": "f64"}})


def test_draws_in_range():
    (y,) = load_kernel("RandomUniformLike")({"low": -2.0, "high": -1.0})(np.zeros((4, 30)))
    assert y.dtype == np.float64 and y.shape == (4, 30)
    assert np.all((y >= -2) & (y < -1))
