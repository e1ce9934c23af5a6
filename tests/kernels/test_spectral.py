"""Signal-processing kernels vs onnx's reference evaluator: the spectral windows."""
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check

FAST = settings(max_examples=12, deadline=None, derandomize=bool(os.environ.get("CI")))


@pytest.mark.parametrize("op", ["HannWindow", "HammingWindow", "BlackmanWindow"])
@FAST
@given(n=st.integers(0, 16), periodic=st.integers(0, 1), out=st.sampled_from([1, 11, 10]))
def test_windows(op, n, periodic, out):
    # (f16: the reference computes in f16, we in f64 and round once: a few ulps apart)
    check(op, [np.array(n, np.int64)], {"periodic": periodic, "output_datatype": out},
          opset=17, const=(0,), atol=2e-3 if out == 10 else 1e-5)
