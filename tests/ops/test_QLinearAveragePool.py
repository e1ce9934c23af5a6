"""QLinearAveragePool (com.microsoft): rules/QLinearAveragePool.lp on data cases, and the rules
and the kernel against onnxruntime (channels first and last, strides, pads, ceil_mode)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime

P = ["[]", ("u8", "[]"), "[]", ("u8", "[]")]


def case(x, attrs, outputs=None):
    spec = {"inputs": [x] + P, "attrs": attrs, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "3x3, stride 2, padded": (case(("u8", "[n, c, h, w]"), {"kernel_shape": [3, 3],
                                                           "strides": [2, 2],
                                                           "pads": [1, 1, 1, 1]}),
                              {"y0": "[n, c, (h + 1)//2, (w + 1)//2]", "dtypes": {"y0": "u8"}}),
    "channels last": (case(("u8", "[n, h, w, c]"), {"kernel_shape": [3, 3], "strides": [2, 2],
                                                    "channels_last": 1}),
                      {"y0": "[n, (h + 1)//2 - 1, (w + 1)//2 - 1, c]"}),
    "channels last, 1-D": (case(("u8", "[n, 9, c]"), {"kernel_shape": [2], "channels_last": 1}),
                           {"y0": "[n, 8, c]"}),
    "backward, channels last: the batch and channels from Y": (
        case(("u8", "[n, 6, 6, c]"), {"kernel_shape": [2, 2], "channels_last": 1},
             outputs={"y0": {"shape": "[2, 5, 5, 7]"}}), {"x0": "[2, 6, 6, 7]"}),
    "ceil_mode": (case(("u8", "[1, 1, 6]"), {"kernel_shape": [3], "strides": [2],
                                             "ceil_mode": 1}), {"y0": "[1, 1, 3]"}),
    "float input": (case("[n, c, h, w]", {"kernel_shape": [3, 3]}), "error"),
    "the window fits nowhere": (case(("u8", "[n, c, 2, 2]"), {"kernel_shape": [3, 3]}), "error"),
    "nor channels last": (case(("u8", "[n, 2, 2, c]"), {"kernel_shape": [3, 3],
                                                       "channels_last": 1}), "error"),
    "no kernel_shape": (case(("u8", "[n, c, h, w]"), {}), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QLinearAveragePool", spec, expected)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spatial=st.integers(1, 2),
       size=st.lists(st.integers(2, 7), min_size=2, max_size=2), k=st.integers(1, 3),
       stride=st.integers(1, 2), pad=st.integers(0, 1), ceil=st.booleans(),
       include_pad=st.booleans(), last=st.booleans(), signed=st.booleans())
def test_matches_onnxruntime(seed, spatial, size, k, stride, pad, ceil, include_pad, last,
                             signed):
    pad = min(pad, k - 1)  # (a pad as large as the window is refused by onnxruntime)
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    shape = [2] + size[:spatial] + [3] if last else [2, 3] + size[:spatial]
    arrays = [q(shape), np.float32(0.05), q(()), np.float32(0.04), q(())]
    attrs = {"kernel_shape": [k] * spatial, "strides": [stride] * spatial,
             "pads": [pad] * (2 * spatial), "ceil_mode": int(ceil),
             "count_include_pad": int(include_pad), "channels_last": int(last)}
    check_against_onnxruntime("QLinearAveragePool", arrays, attrs, rtol=0, atol=1)
