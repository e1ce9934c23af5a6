"""QLinearGlobalAveragePool (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

Q = ["S", ("u8", "Z"), "S2", ("u8", "Z2")]
CASES = {
    "NCHW": ({"inputs": [("u8", "[n, c, h, w]")] + Q}, {"y0": "[n, c, 1, 1]",
                                                        "dtypes": {"y0": "u8", "x1": "f32"}}),
    "NHWC": ({"inputs": [("u8", "[n, h, w, c]")] + Q, "attrs": {"channels_last": 1}},
             {"y0": "[n, 1, 1, c]"}),
    "1-D spatial": ({"inputs": [("u8", "[n, c, l]")] + Q}, {"y0": "[n, c, 1]"}),
    "backward: N and C": ({"inputs": [("u8", "[n, c, h, w]")] + Q,
                           "outputs": {"y0": {"shape": "[2, 64, 1, 1]"}}},
                          {"x0": "[2, 64, h, w]"}),
    "no spatial axes": ({"inputs": [("u8", "[n, c]")] + Q}, "error"),
    "float input": ({"inputs": ["[n, c, h, w]", "S", "Z", "S2", "Z2"]}, "error"),
}


test_case = case_test("QLinearGlobalAveragePool", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), min_size=3, max_size=5),
       signed=st.booleans(), channels_last=st.sampled_from([0, 1]))
def test_matches_onnxruntime(seed, shape, signed, channels_last):
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    arrays = [q(shape), np.float32(rng.random() * 0.1 + 0.01), q(()),
              np.float32(rng.random() * 0.1 + 0.01), q(())]
    want = check_against_onnxruntime("QLinearGlobalAveragePool", arrays,
                                     {"channels_last": channels_last}, rtol=0, atol=1)
    assert want is not None
