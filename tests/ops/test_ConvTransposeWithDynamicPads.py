"""ConvTransposeWithDynamicPads (com.microsoft): rules/ConvTransposeWithDynamicPads.lp on
data cases (constant pads, pads from the data, pads computed from shapes), and the rules
and the kernel against onnxruntime (strides, dilations, output_padding, auto_pad, groups)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic import solve
from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime, infer_contrib, ort_contrib
from tests.contrib_ops import ms_case as case

OP = "ConvTransposeWithDynamicPads"


def pads(*v):
    return np.array(v, np.int64)


X, W = "[n, c, h, w]", "[c, m, 3, 3]"
CASES = {
    "the pads' values, strides and output_padding": (
        case([X, W, pads(1, 1, 1, 1)], {"strides": [2, 2], "output_padding": [1, 1]}),
        {"y0": "[n, m, 2*h, 2*w]", "dtypes": {"y0": "f32"}}),
    "begin and end pads apart, dilations": (
        case(["[n, c, h]", "[c, m, 3]", pads(0, 3)], {"dilations": [2]}),
        {"y0": "[n, m, h + 1]"}),
    # onnxruntime cuts the pads off under VALID too
    "VALID with pads": (case([X, W, pads(1, 2, 0, 1)], {"strides": [2, 2], "auto_pad": "VALID"}),
                        {"y0": "[n, m, 2*h, 2*w - 2]"}),
    "SAME ignores the pads": (case([X, W, pads(1, 2, 0, 1)], {"strides": [2, 2],
                                                              "auto_pad": "SAME_UPPER"}),
                              {"y0": "[n, m, 2*h, 2*w]"}),
    # e + output_padding < stride: onnxruntime clamps the padding (13 for 5), the spec says 15
    "SAME, kernel shorter than the stride: unknown": (
        case(["[n, c, h]", "[c, m, 1]", pads(0, 0)], {"strides": [3], "auto_pad": "SAME_LOWER"}),
        {"y0": "[n, m, _1]"}),
    "pads from the data: unknown sizes": (case([X, W, ("i64", "P")]),
                                          {"y0": "[n, m, _1, _2]", "x2": "[4]"}),
    "groups and bias": (case(["[n, 4, h]", "[c, 3, 3]", pads(0, 0), "[b]"], {"group": 2}),
                        {"y0": "[n, 6, h + 2]", "x1": "[4, 3, 3]", "x3": "[6]"}),
    "3-D, kernel_shape": (case(["[1, 2, 3, 4, 5]", "[2, 1, k, 2, 2]", pads(0, 0, 0, 1, 1, 1)],
                               {"kernel_shape": [2, 2, 2]}),
                          {"y0": "[1, 1, 3, 4, 5]", "x1": "[2, 1, 2, 2, 2]"}),
    "backward: the input channels from W": (case(["[n, c, h]", "[4, m, 3]", pads(0, 0)]),
                                            {"x0": "[n, 4, h]"}),
    "float16": (case([("f16", "[1, 2, 5]"), ("f16", "[2, 3, 3]"), pads(1, 1)]),
                {"y0": "[1, 3, 5]", "dtypes": {"y0": "f16"}}),
    "float64 (onnxruntime's CPU kernel has none)": (
        case([("f64", "[1, 2, 5]"), ("f64", "[2, 3, 3]"), pads(0, 0)]),
        {"y0": "[1, 3, 7]", "dtypes": {"y0": "f64"}}),
    # errors (onnxruntime rejects each)
    "no Pads (the schema's optional input is required)": (case(["[n, c, h]", "[c, m, 3]"]),
                                                          "error"),
    "nor with a bias": (case(["[n, c, h]", "[c, m, 3]", None, "[m]"]), "error"),
    "a negative pad": (case(["[n, c, h]", "[c, m, 3]", pads(-1, 0)]), "error"),
    "pads of another length": (case(["[n, c, h]", "[c, m, 3]", pads(0, 0, 0, 0)]), "error"),
    "pads as a matrix": (case(["[n, c, h]", "[c, m, 3]", ("i64", "[1, 2]")]), "error"),
    "int32 pads": (case(["[n, c, h]", "[c, m, 3]", ("i32", "[2]")]), "error"),
    "the pads take the whole output": (case(["[n, c, 3]", "[c, m, 3]", pads(3, 2)]), "error"),
    "a pads attribute": (case(["[n, c, h]", "[c, m, 3]", pads(0, 0)], {"pads": [0, 0]}),
                         "input error"),
    "an output_shape attribute": (case(["[n, c, h]", "[c, m, 3]", pads(0, 0)],
                                       {"output_shape": [9]}), "input error"),
    "output_padding not below the stride": (
        case(["[n, c, h]", "[c, m, 3]", pads(0, 0)], {"strides": [2], "output_padding": [2],
                                                      "dilations": [3]}), "error"),
    "integer x": (case([("i32", "[1, 2, 5]"), ("i32", "[2, 3, 3]"), pads(0, 0)]), "error"),
    "group does not divide the channels": (case(["[1, 3, 5]", "[3, 1, 3]", pads(0, 0)],
                                                {"group": 2}), "error"),
    "a bias of another length": (case(["[1, 4, 5]", "[4, 1, 3]", pads(0, 0), "[1]"],
                                      {"group": 2}), "error"),
    "W of another rank": (case(["[1, 2, 5]", "[2, 3, 3, 3]", pads(0, 0)]), "error"),
    "rank 2": (case(["[1, 2]", "[2, 3]", pads()]), "error"),
    "zero stride": (case(["[1, 2, 5]", "[2, 3, 3]", pads(0, 0)], {"strides": [0]}), "error"),
    "unknown auto_pad": (case(["[1, 2, 5]", "[2, 3, 3]", pads(0, 0)], {"auto_pad": "SAME"}),
                         "error"),
    "kernel_shape is not W's": (case(["[1, 2, 5]", "[2, 3, 3]", pads(0, 0)],
                                     {"kernel_shape": [2]}), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


def test_pads_computed_from_shapes():
    """tf2onnx computes the pads from shapes: Pads [0, 0, h - 1, w - 1] gives
    2*(h - 1) + 3 - (h - 1) = h + 2."""
    g = {"opset": 17,
         "inputs": {"x": {"dtype": "f32", "shape": "[1, 2, h, w]"},
                    "wt": {"dtype": "f32", "shape": "[2, 3, 3, 3]"}},
         "initializers": {"two": {"dtype": "i64", "shape": [1], "data": [2]},
                          "four": {"dtype": "i64", "shape": [1], "data": [4]},
                          "one": {"dtype": "i64", "shape": [], "data": 1},
                          "zeros": {"dtype": "i64", "shape": [2], "data": [0, 0]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sx"]},
                   {"op": "Slice", "inputs": ["sx", "two", "four"], "outputs": ["hw"]},
                   {"op": "Sub", "inputs": ["hw", "one"], "outputs": ["hm1"]},
                   {"op": "Concat", "inputs": ["zeros", "hm1"], "outputs": ["pads"],
                    "attrs": {"axis": 0}},
                   {"name": "ct", "op": OP, "domain": MS, "inputs": ["x", "wt", "pads"],
                    "outputs": ["y"], "attrs": {"strides": [2, 2]}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[1, 3, h + 2, w + 2]"
    x = np.ones([1, 2, 5, 4], np.float32)
    y = ort_contrib(OP, [x, np.ones([2, 3, 3, 3], np.float32), pads(0, 0, 4, 3)],
                    {"strides": [2, 2]}, const=(2,))[0]
    assert y.shape == (1, 3, 7, 6)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.lists(st.integers(1, 5), min_size=1, max_size=3),
       k=st.integers(1, 3), stride=st.integers(1, 3), dilation=st.integers(1, 2),
       outpad=st.integers(0, 4), pad=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       auto_pad=st.sampled_from(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]),
       group=st.integers(1, 2), bias=st.booleans())
def test_matches_onnxruntime(seed, size, k, stride, dilation, outpad, pad, auto_pad, group,
                             bias):
    rng = np.random.default_rng(seed)
    nd = len(size)
    c, m = 2 * group, 3 * group
    outpad = min(outpad, stride - 1) if outpad < 4 else stride  # (4: as large: invalid)
    x = rng.standard_normal([2, c] + size).astype(np.float32)
    w = rng.standard_normal([c, 3] + [k] * nd).astype(np.float32)
    b = rng.standard_normal([m]).astype(np.float32) if bias else None
    arrays = [x, w, np.array(pad[:2 * nd], np.int64), b]
    attrs = {"strides": [stride] * nd, "dilations": [dilation] * nd,
             "output_padding": [outpad] * nd, "group": group, "auto_pad": auto_pad}
    e = dilation * (k - 1) + 1
    if auto_pad.startswith("SAME") and outpad < stride and e + outpad < stride:
        # onnxruntime clamps the padding: the rules leave the spatial sizes unknown
        want = ort_contrib(OP, arrays, attrs, const=(2,))[0]
        got = load_kernel(OP)(attrs, domain=MS)(*arrays)[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)
        sol = infer_contrib(OP, [list(x.shape), list(w.shape), arrays[2]] + [
            None if b is None else list(b.shape)], attrs)
        assert [d.value if d.is_int else "_" for d in sol.dims("y0")] == [2, m] + ["_"] * nd
    else:
        check_against_onnxruntime(OP, arrays, attrs, const=(2,))
