"""QLinearConv: rules/QLinearConv.lp (Conv.lp's shapes) on data cases, and against onnx's
reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 18


def q(x, w, b=None, ws="[]", xd="u8", wd="i8", yd="u8"):
    """The inputs: x, w and the bias as given, scales and zero points per tensor (w's: ws)."""
    out = [(xd, x), ("f32", "[]"), (xd, "[]"), (wd, w), ("f32", ws), (wd, ws), ("f32", "[]"),
           (yd, "[]")]
    return out + ([("i32", b)] if b else [])


CASES = {
    "Conv's sizes": ({"inputs": q("[n, 3, h, w]", "[16, 3, 3, 3]", "B"),
                      "attrs": {"pads": [1, 1, 1, 1], "strides": [2, 2]}},
                     {"y0": "[n, 16, (h + 1)//2, (w + 1)//2]", "x8": "[16]",
                      "dtypes": {"y0": "u8"}}),
    "groups": ({"inputs": q("[1, 8, 5, 5]", "[8, 1, 3, 3]"), "attrs": {"group": 8}},
               {"y0": "[1, 8, 3, 3]"}),
    "per output channel": ({"inputs": q("[1, 3, 5]", "W", ws="[4]")}, {"y0": "[1, 4, _2]"}),
    "int8 out": ({"inputs": q("[1, 3, 5]", "[2, 3, 2]", yd="i8")},
                 {"y0": "[1, 2, 4]", "dtypes": {"y0": "i8"}}),
    "backward: the input channels": ({"inputs": q("[1, c, 5]", "[2, 3, 2]")},
                                     {"bindings": {"c": 3}}),
    "channels differ": ({"inputs": q("[1, 4, 5]", "[2, 3, 2]")}, "error"),
    "a float bias": ({"inputs": q("[1, 3, 5]", "[2, 3, 2]")[:8] + [("f32", "[2]")]}, "error"),
    "a bias of another length": ({"inputs": q("[1, 3, 5]", "[2, 3, 2]", "[3]")}, "error"),
    "float x": ({"inputs": q("[1, 3, 5]", "[2, 3, 2]", xd="f32")}, "error"),
    "per channel scale of another length": ({"inputs": q("[1, 3, 5]", "[2, 3, 2]", ws="[3]")},
                                            "error"),
    "a kernel larger than the input": ({"inputs": q("[1, 3, 2]", "[2, 3, 3]")}, "error"),
    "seven inputs": ({"inputs": q("[1, 3, 5]", "[2, 3, 2]")[:7]}, "error"),
}


test_case = case_test("QLinearConv", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2), st.integers(1, 3), st.integers(1, 3),
       st.lists(st.integers(3, 6), min_size=2, max_size=2), st.data(), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_matches_reference(n, group, cg, mg, size, data, bias, seed):
    # 2-D: onnx's reference lays a per-channel scale out for 2-D kernels only
    rng = np.random.default_rng(seed)
    nd = len(size)
    kernel = [data.draw(st.integers(1, 3)) for _ in range(nd)]
    attrs = {"group": group, "strides": [data.draw(st.integers(1, 2)) for _ in range(nd)],
             "pads": [data.draw(st.integers(0, 1)) for _ in range(2 * nd)]}
    m = mg * group
    x = rng.integers(0, 255, [n, cg * group] + size).astype(np.uint8)
    w = rng.integers(-128, 127, [m, cg] + kernel).astype(np.int8)
    f = np.float32
    ws = rng.uniform(0.001, 0.02, [m]).astype(f) if data.draw(st.booleans()) else f(0.01)
    inputs = [x, f(0.05), np.uint8(100), w, ws, np.int8(0), f(rng.uniform(0.5, 4)),
              np.uint8(120)]
    if bias:
        inputs.append(rng.integers(-500, 500, [m]).astype(np.int32))
    check_against_reference("QLinearConv", inputs, attrs, opset=OPSET)
