"""QLinearConv: rules/QLinearConv.lp (Conv.lp's shapes) on data cases, and against onnx's
reference on random shapes; onnxruntime's com.microsoft QLinearConv (channels_last) on data
cases and against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.contrib_ops import MS, check_against_onnxruntime
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


# onnxruntime's com.microsoft QLinearConv: ONNX's, and channels_last 1 puts the channels of
# x and y last (w stays [M, C/group, k1, ..])
CL = {"channels_last": 1}
MS_CASES = {
    "channels last: Conv's sizes": (
        {"inputs": q("[n, h, w, 3]", "[16, 3, 3, 3]", "B"),
         "attrs": {**CL, "pads": [1, 1, 1, 1], "strides": [2, 2]}},
        {"y0": "[n, (h + 1)//2, (w + 1)//2, 16]", "x8": "[16]", "dtypes": {"y0": "u8"}}),
    "channels last: the input channels from w": (
        {"inputs": q("[n, h, w, c]", "[8, 3, 2, 2]"), "attrs": CL},
        {"x0": "[n, h, w, 3]", "y0": "[n, h - 1, w - 1, 8]"}),
    "channels last: w's channels from x, groups": (
        {"inputs": q("[1, 9, 6]", "[4, c, 2]"), "attrs": {**CL, "group": 2}},
        {"x3": "[4, 3, 2]", "y0": "[1, 8, 4]"}),
    "channels last, 3-D, SAME": (
        {"inputs": q("[1, d, 7, 5, 3]", "[16, 3, 3, 3, 3]"),
         "attrs": {**CL, "auto_pad": "SAME_LOWER", "strides": [2, 2, 2], "dilations": [1, 1, 1]}},
        {"y0": "[1, (d + 1)//2, 4, 3, 16]"}),
    "channels last, dilations": ({"inputs": q("[n, h, w, 3]", "[16, 3, 3, 3]"),
                                  "attrs": {**CL, "dilations": [2, 3]}},
                                 {"y0": "[n, h - 4, w - 6, 16]"}),
    "channels last, per output channel, int8": (
        {"inputs": q("[n, h, 4]", "W", ws="[6]", xd="i8", yd="i8"),
         "attrs": {**CL, "kernel_shape": [3]}},
        {"x3": "[6, 4, 3]", "y0": "[n, h - 2, 6]", "dtypes": {"y0": "i8"}}),
    "backward, channels last: the batch and filters from y": (
        {"inputs": q("[n, 5, 5, 3]", "[m, 3, 3, 3]"), "attrs": CL,
         "outputs": {"y0": {"shape": "[2, 3, 3, 16]"}}}, {"bindings": {"n": 2, "m": 16}}),
    "channels_last 0: channels first": ({"inputs": q("[n, 3, h, w]", "[16, 3, 3, 3]"),
                                         "attrs": {"channels_last": 0}},
                                        {"y0": "[n, 16, h - 2, w - 2]"}),
    # onnxruntime's kernel reads any other value as channels last, its graph optimizations
    # (the default session's) as channels first
    "channels_last 2: unknown": ({"inputs": q("[n, h, w, 3]", "[16, 3, 3, 3]"),
                                  "attrs": {"channels_last": 2}}, {"y0": "[n, _1, _2, _3]"}),
    "channels last: the channels differ": ({"inputs": q("[1, 5, 5, 4]", "[16, 3, 3, 3]"),
                                            "attrs": CL}, "error"),
    "channels last: the kernel fits nowhere": ({"inputs": q("[1, 2, 5, 3]", "[16, 3, 3, 3]"),
                                                "attrs": CL}, "error"),
    "channels last: group does not divide the channels": (
        {"inputs": q("[1, 5, 5, 6]", "[16, 3, 3, 3]"), "attrs": {**CL, "group": 4}}, "error"),
    "channels last: a bias of another length": (
        {"inputs": q("[1, 5, 5, 3]", "[16, 3, 3, 3]", "[4]"), "attrs": CL}, "error"),
    "channels last: pads with auto_pad": (
        {"inputs": q("[1, 5, 5, 3]", "[16, 3, 3, 3]"),
         "attrs": {**CL, "pads": [1, 1, 1, 1], "auto_pad": "SAME_UPPER"}}, "error"),
    "SAME with a dilation (onnxruntime refuses it)": (
        {"inputs": q("[1, 5, 5, 3]", "[16, 3, 3, 3]"),
         "attrs": {**CL, "auto_pad": "SAME_UPPER", "dilations": [1, 2]}}, "error"),
    "channels last: float x": ({"inputs": q("[1, 5, 5, 3]", "[16, 3, 3, 3]", xd="f32"),
                                "attrs": CL}, "error"),
    "channels last: rank 2": ({"inputs": q("[1, 3]", "[16, 3]"), "attrs": CL}, "error"),
}


test_com_microsoft_case = case_test(
    "QLinearConv", {k: ({**spec, "domain": MS}, want) for k, (spec, want) in MS_CASES.items()})


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.lists(st.integers(2, 7), min_size=1, max_size=3),
       k=st.integers(1, 3), stride=st.integers(1, 2), dilation=st.integers(1, 2),
       pads=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       auto_pad=st.sampled_from(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]),
       group=st.integers(1, 2), last=st.booleans(), signed=st.booleans(), uw=st.booleans(),
       per_channel=st.booleans(), bias=st.booleans())
def test_com_microsoft_matches_onnxruntime(seed, size, k, stride, dilation, pads, auto_pad,
                                           group, last, signed, uw, per_channel, bias):
    """Our kernel's values and the rules' shapes against onnxruntime's CPU kernel: channels
    first and last, uint8 x with int8 or uint8 w, or int8 throughout."""
    rng = np.random.default_rng(seed)
    nd = len(size)
    c, m = 2 * group, 3 * group
    xt, wt = (np.int8, np.int8) if signed else (np.uint8, np.uint8 if uw else np.int8)
    # (w small: onnxruntime's uint8 x int8 products may saturate 16-bit pair sums)
    wlo, whi = (0, 64) if wt == np.uint8 else (-63, 64)
    x = rng.integers(-128 if signed else 0, 128 if signed else 256,
                     [2] + size + [c] if last else [2, c] + size).astype(xt)
    w = rng.integers(wlo, whi, [m, 2] + [k] * nd).astype(wt)
    f = np.float32
    ws = rng.uniform(0.001, 0.02, [m]).astype(f) if per_channel else f(0.01)
    inputs = [x, f(0.05), xt(3), w, ws, np.zeros(np.shape(ws), wt), f(rng.uniform(0.5, 4)),
              xt(5), rng.integers(-500, 500, [m]).astype(np.int32) if bias else None]
    attrs = {"group": group, "strides": [stride] * nd, "dilations": [dilation] * nd,
             "auto_pad": auto_pad, "channels_last": int(last)}
    if auto_pad == "NOTSET":
        attrs["pads"] = pads[:2 * nd]
    check_against_onnxruntime("QLinearConv", inputs, attrs, rtol=0, atol=1)
