"""ConvInteger: rules/ConvInteger.lp (Conv.lp's shapes) on data cases, and against onnx's
reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "Conv's sizes, int32 out": ({"inputs": [("u8", "[n, 3, h, w]"), ("u8", "[16, 3, 3, 3]")],
                                 "attrs": {"strides": [2, 2]}},
                                {"y0": "[n, 16, (h + 1)//2 - 1, (w + 1)//2 - 1]",
                                 "dtypes": {"y0": "i32"}}),
    "zero points": ({"inputs": [("u8", "[1, 2, 5]"), ("i8", "[4, 2, 2]"), ("u8", "[]"),
                                ("i8", "[4]")]}, {"y0": "[1, 4, 4]"}),
    "per channel zero point of another length": (
        {"inputs": [("u8", "[1, 2, 5]"), ("i8", "[4, 2, 2]"), ("u8", "[]"), ("i8", "[3]")]},
        "error"),
    "a zero point of another type": ({"inputs": [("u8", "[1, 2, 5]"), ("i8", "[4, 2, 2]"),
                                                 ("i8", "[]")]}, "error"),
    "backward: the output channels": ({"inputs": [("u8", "[1, 2, 5]"), ("u8", "[m, 2, 2]")],
                                       "outputs": {"y0": {"shape": "[1, 6, 4]"}}},
                                      {"bindings": {"m": 6}}),
    "channels differ": ({"inputs": [("u8", "[1, 3, 5]"), ("u8", "[2, 2, 2]")]}, "error"),
    "float operands": ({"inputs": ["[1, 3, 5]", "[2, 3, 2]"]}, "error"),
    "a bias": ({"inputs": [("u8", "[1, 2, 5]"), ("u8", "[4, 2, 2]"), ("u8", "[]"),
                           ("u8", "[]"), ("i32", "[4]")]}, "error"),
}


test_case = case_test("ConvInteger", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2), st.integers(1, 3), st.integers(1, 3),
       st.lists(st.integers(3, 6), min_size=2, max_size=2), st.data(),
       st.integers(0, 2**32 - 1))
def test_matches_reference(n, group, cg, mg, size, data, seed):
    # 2-D: onnx's reference lays a per-channel zero point out for 2-D kernels only
    rng = np.random.default_rng(seed)
    kernel = [data.draw(st.integers(1, 3)) for _ in size]
    attrs = {"group": group, "strides": [data.draw(st.integers(1, 2)) for _ in size],
             "pads": [data.draw(st.integers(0, 1)) for _ in range(4)]}
    m = mg * group
    x = rng.integers(0, 255, [n, cg * group] + size).astype(np.uint8)
    w = rng.integers(0, 255, [m, cg] + kernel).astype(np.uint8)
    wz = rng.integers(0, 9, [m]).astype(np.uint8) if data.draw(st.booleans()) else np.uint8(3)
    check_against_reference("ConvInteger", [x, w, np.uint8(100), wz], attrs, opset=OPSET)
