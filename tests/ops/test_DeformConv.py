"""DeformConv: rules/DeformConv.lp (Conv.lp's output sizes) on data cases, and against onnx's
reference on random 2-D shapes, groups, offset groups, strides, pads and dilations (the
kernel's values: tests/kernels/test_deform_conv.py)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

OPSET = 22

CASES = {
    "2-D: offset and mask at the output's sizes": (
        {"inputs": ["[n, c, h, w]", "[m, c, 3, 3]", "O", "B", "M"]},
        {"x2": "[n, 18, h - 2, w - 2]", "x3": "[m]", "x4": "[n, 9, h - 2, w - 2]",
         "y0": "[n, m, h - 2, w - 2]"}),
    "pads, strides, offset groups": (
        {"inputs": ["[n, c, h, w]", "[m, c, 3, 3]", "O", None, "M"],
         "attrs": {"pads": [1, 1, 1, 1], "strides": [2, 2], "offset_group": 2}},
        {"x2": "[n, 36, (h + 1)//2, (w + 1)//2]", "x4": "[n, 18, (h + 1)//2, (w + 1)//2]"}),
    "dilations and groups": (
        {"inputs": ["[n, 6, h, w]", "[m, c, 2, 3]", "O"],
         "attrs": {"dilations": [2, 1], "group": 3}},
        {"x1": "[m, 2, 2, 3]", "x2": "[n, 12, h - 2, w - 2]", "y0": "[n, m, h - 2, w - 2]"}),
    "a symbolic kernel: the taps are a product": (
        {"inputs": ["[n, c, h, w]", "[m, c, kh, kw]", "O", None, "M"]},
        {"x2": "[n, 2*kh*kw, h - kh + 1, w - kw + 1]",
         "x4": "[n, kh*kw, h - kh + 1, w - kw + 1]"}),
    "1-D, three offset groups: one shift per tap": (
        {"inputs": ["[n, c, l]", "[m, c, k]", "O", None, "M"], "attrs": {"offset_group": 3}},
        {"x2": "[n, 3*k, l - k + 1]", "x4": "[n, 3*k, l - k + 1]"}),
    "3-D (the spec's N-D)": (
        {"inputs": ["[n, c, d1, d2, d3]", "[m, c, 2, 2, 2]", "O", None, "M"]},
        {"x2": "[n, 24, d1 - 1, d2 - 1, d3 - 1]", "x4": "[n, 8, d1 - 1, d2 - 1, d3 - 1]"}),
    "the rank and kernel from kernel_shape": (
        {"inputs": ["X", "W", "O"], "attrs": {"kernel_shape": [3, 3]}},
        {"x1": "[_5, _6, 3, 3]", "x2": "[_1, 18, _7, _8]"}),
    "bfloat16 from opset 22": ({"inputs": [("bf16", "[1, 2, 5, 5]"), ("bf16", "[4, 2, 3, 3]"),
                                           ("bf16", "O")]},
                               {"y0": "[1, 4, 3, 3]", "dtypes": {"y0": "bf16"}}),
    "backward: the input's sizes from the offset": (
        {"inputs": ["[n, c, h, w]", "[m, c, 3, 3]", "[n, o, 5, 5]"]},
        {"x0": "[n, c, 7, 7]", "bindings": {"h": 7, "o": 18, "w": 7}}),
    "backward: the batch and output channels from the output": (
        {"inputs": ["[n, c, h, w]", "[m, c, 3, 3]", "O"],
         "outputs": {"y0": {"shape": "[2, 8, 4, 4]"}}},
        {"x2": "[2, 18, 4, 4]", "x0": "[2, c, 6, 6]"}),
    # errors
    "an offset of another channel count": ({"inputs": ["[n, c, h, w]", "[m, c, 3, 3]",
                                                       "[n, 17, oh, ow]"]}, "error"),
    "a mask of another channel count": ({"inputs": ["[n, c, h, w]", "[m, c, 3, 3]", "O", None,
                                                    "[n, 18, oh, ow]"]}, "error"),
    "an offset of other sizes than the output's": (
        {"inputs": ["[1, 2, 5, 5]", "[4, 2, 3, 3]", "[1, 18, 3, 4]"]}, "error"),
    "offset groups do not divide the channels": (
        {"inputs": ["[n, 6, h, w]", "[m, 6, 3, 3]", "O"], "attrs": {"offset_group": 4}}, "error"),
    "offset_group 0": ({"inputs": ["[n, 6, h, w]", "[m, 6, 3, 3]", "O"],
                        "attrs": {"offset_group": 0}}, "error"),
    "groups do not divide the channels": (
        {"inputs": ["[1, 5, 5, 5]", "[4, c, 3, 3]", "O"], "attrs": {"group": 2}}, "error"),
    "an offset of another batch": ({"inputs": ["[2, 2, 5, 5]", "[4, 2, 3, 3]", "[3, 18, 3, 3]"]},
                                   "error"),
    "an offset of another rank": ({"inputs": ["[2, 2, 5, 5]", "[4, 2, 3, 3]", "[2, 18, 9]"]},
                                  "error"),
    "the kernel wider than the padded input": (
        {"inputs": ["[1, 2, 2, 5]", "[4, 2, 3, 3]", "O"]}, "error"),
    "bfloat16 before opset 22": ({"inputs": [("bf16", "[1, 2, 5, 5]"), ("bf16", "[4, 2, 3, 3]"),
                                             ("bf16", "O")], "opset": 19}, "error"),
    "integers": ({"inputs": [("i32", "[1, 2, 5, 5]"), ("i32", "[4, 2, 3, 3]"), ("i32", "O")]},
                 "error"),
    "an offset of another type": ({"inputs": ["[1, 2, 5, 5]", "[4, 2, 3, 3]", ("f16", "O")]},
                                  "error"),
}


test_case = case_test("DeformConv", CASES, OPSET)


@st.composite
def deform_cases(draw):
    """2-D cases (onnx's reference has no other), input sizes from 2 (it divides by size - 1),
    offsets of a few elements either way; now and then an offset of another size, channels
    the offset groups do not divide, a kernel wider than the padded input."""
    group, offset_group = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    c = group * offset_group * draw(st.integers(1, 2)) + (1 if draw(st.integers(0, 9)) == 0
                                                          else 0)
    m = group * draw(st.integers(1, 2))
    sizes = draw(st.lists(st.integers(2, 5), min_size=2, max_size=2))
    kernel = [draw(st.integers(1, min(3, n))) for n in sizes]
    ints = lambda lo, hi, n=2: st.lists(st.integers(lo, hi), min_size=n, max_size=n)  # noqa: E731
    attrs = {}
    for key, values in (("strides", ints(1, 2)), ("dilations", ints(1, 2)),
                        ("pads", ints(0, 1, 4))):
        if draw(st.booleans()):
            attrs[key] = draw(values)
    if group > 1 or draw(st.booleans()):
        attrs["group"] = group
    if offset_group > 1 or draw(st.booleans()):
        attrs["offset_group"] = offset_group
    if draw(st.integers(0, 3)) == 0:
        attrs["kernel_shape"] = kernel
    out = [(n + p + q - d * (k - 1) - 1) // s + 1 for n, p, q, d, k, s in zip(
        sizes, attrs.get("pads", [0] * 4)[:2], attrs.get("pads", [0] * 4)[2:],
        attrs.get("dilations", [1, 1]), kernel, attrs.get("strides", [1, 1]))]
    if min(out) <= 0:
        return None  # the rules' error, the reference's empty output: test_case has it
    if draw(st.integers(0, 9)) == 0:
        out[0] += 1
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    taps = kernel[0] * kernel[1]
    arrays = [random_array([1, c] + sizes, rng=rng), random_array([m, c // group] + kernel,
                                                                  rng=rng),
              random_array([1, offset_group * taps * 2] + out, rng=rng),
              random_array([m], rng=rng) if draw(st.booleans()) else None,
              rng.random([1, offset_group * taps] + out).astype(np.float32)
              if draw(st.booleans()) else None]
    return arrays, attrs


@settings(max_examples=20, deadline=None)
@given(deform_cases())
def test_matches_reference(case):
    if case is None:
        return
    arrays, attrs = case
    check_against_reference("DeformConv", arrays, attrs, opset=OPSET)


def test_empty_output_is_an_error_as_for_conv():
    # (onnxruntime and onnx's reference give an output axis of size 0 here)
    sol = infer("DeformConv", [[1, 2, 2, 5], [4, 2, 3, 3], [1, 18, 0, 3]], opset=OPSET)
    assert sol.status == "error"
