"""QLinearSigmoid (com.microsoft): rules on data cases, and against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "symbolic": ({"inputs": [("u8", "[b, s, 4]"), "S", ("u8", "Z"), "[]", ("u8", "[]")]},
                 {"y0": "[b, s, 4]", "dtypes": {"y0": "u8", "x1": "f32", "x2": "u8"}}),
    "int8, [1] scales": ({"inputs": [("i8", "[n]"), "[1]", ("i8", "[1]"), "[1]", ("i8", "[]")]},
                         {"y0": "[n]", "dtypes": {"y0": "i8"}}),
    "backward": ({"inputs": [("u8", "X"), "S", ("u8", "Z"), "S2", ("u8", "Z2")],
                  "outputs": {"y0": {"shape": "[2, n]"}}}, {"x0": "[2, n]"}),
    "float input": ({"inputs": ["[n]", "S", ("u8", "Z"), "S2", ("u8", "Z2")]}, "error"),
    "zero point of another type": ({"inputs": [("u8", "[n]"), "S", ("i8", "Z"), "S2",
                                               ("u8", "Z2")]}, "error"),
}


test_case = case_test("QLinearSigmoid", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), max_size=3),
       signed=st.booleans())
def test_matches_onnxruntime(seed, shape, signed):
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    arrays = [q(shape), np.float32(rng.random() * 0.1 + 0.01), q(()),
              np.float32(rng.random() * 0.01 + 0.002), q(())]
    assert check_against_onnxruntime("QLinearSigmoid", arrays, rtol=0, atol=1) is not None
