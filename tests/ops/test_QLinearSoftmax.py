"""QLinearSoftmax (com.microsoft): rules on data cases, and against onnxruntime (both opset
semantics, the axis' default)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

U8 = [("u8", "Z"), "S2", ("u8", "Z2")]
CASES = {
    "attention scores": ({"inputs": [("u8", "[b, h, s, t]"), "S"] + U8, "attrs": {"opset": 13}},
                         {"y0": "[b, h, s, t]", "dtypes": {"y0": "u8", "x1": "f32"}}),
    "int8, opset 11, an axis": ({"inputs": [("i8", "[n, 10]"), "[]", ("i8", "[]"), "[]",
                                            ("i8", "[]")], "attrs": {"opset": 11, "axis": 1}},
                                {"y0": "[n, 10]", "dtypes": {"y0": "i8"}}),
    "backward": ({"inputs": [("u8", "X"), "S"] + U8, "attrs": {"opset": 13},
                  "outputs": {"y0": {"shape": "[2, n]"}}}, {"x0": "[2, n]"}),
    "a scalar has no axis -1": ({"inputs": [("u8", "[]"), "S"] + U8, "attrs": {"opset": 13}},
                                "error"),
    "axis beyond the rank": ({"inputs": [("u8", "[b, 4]"), "S"] + U8,
                              "attrs": {"opset": 13, "axis": 2}}, "error"),
    "no opset": ({"inputs": [("u8", "[b, 4]"), "S"] + U8}, "error"),
    "float input": ({"inputs": ["[n]", "S"] + U8, "attrs": {"opset": 13}}, "error"),
}


test_case = case_test("QLinearSoftmax", CASES, domain=MS)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), min_size=1,
                                                       max_size=3),
       signed=st.booleans(), opset=st.sampled_from([11, 13]), axis=st.integers(-3, 2),
       default_axis=st.booleans(), no_x_zero=st.booleans())
def test_matches_onnxruntime(seed, shape, signed, opset, axis, default_axis, no_x_zero):
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    arrays = [q(shape), np.float32(rng.random() * 0.1 + 0.01), None if no_x_zero else q(()),
              np.float32(1 / 256), np.asarray(lo, dtype)]
    attrs = {"opset": opset} if default_axis else {"opset": opset, "axis": axis}
    check_against_onnxruntime("QLinearSoftmax", arrays, attrs, rtol=0, atol=1)
