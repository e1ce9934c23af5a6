"""QLinearLeakyRelu (com.microsoft): its rules are QLinearSigmoid's (rules/QLinearSigmoid.lp),
so QLinearSigmoid's data cases, under this name and with an alpha; against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.test_QLinearSigmoid import CASES


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QLinearLeakyRelu", {**spec, "attrs": {"alpha": 0.1}, "domain": MS}, expected)


def test_no_zero_points():
    check_case("QLinearLeakyRelu", {"inputs": [("i8", "[n]"), "[1]", None, "[1]"],
                                    "domain": MS}, {"y0": "[n]", "dtypes": {"y0": "i8"}})


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), max_size=3),
       signed=st.booleans(), alpha=st.sampled_from([0.01, 0.1, 0.5]))
def test_matches_onnxruntime(seed, shape, signed, alpha):
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    arrays = [q(shape), np.float32(rng.random() * 0.1 + 0.01), q(()),
              np.float32(rng.random() * 0.05 + 0.01), q(())]
    assert check_against_onnxruntime("QLinearLeakyRelu", arrays, {"alpha": alpha}, rtol=0,
                                     atol=1) is not None
