"""NhwcMaxPool (com.microsoft): rules/NhwcMaxPool.lp on data cases, and the rules and the
kernel against onnxruntime (strides, pads, dilations, auto_pad, ceil_mode, 1-D to 3-D)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime, infer_contrib, ort_contrib
from tests.contrib_ops import ms_case as case

X = ("u8", "[n, h, w, c]")
CASES = {
    "3x3, stride 2, padded": (case([X], {"kernel_shape": [3, 3], "strides": [2, 2],
                                         "pads": [1, 1, 1, 1]}),
                              {"y0": "[n, (h + 1)//2, (w + 1)//2, c]", "dtypes": {"y0": "u8"}}),
    "2x2, stride 2": (case([("i8", "[n, h, w, c]")], {"kernel_shape": [2, 2], "strides": [2, 2]}),
                      {"y0": "[n, h//2, w//2, c]", "dtypes": {"y0": "i8"}}),
    # ceil((h - 3)/2) + 1 = (h - 2)//2 + 1
    "ceil_mode": (case([X], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
                  {"y0": "[n, h//2, w//2, c]"}),
    # ceil((w + 2 - 2)/2) + 1 windows, less one starting in the end pad (w odd)
    "ceil_mode, pads": (case([X], {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1,
                                   "pads": [1, 1, 0, 1]}),
                        {"y0": "[n, h//2 + 1, w//2 + 1, c]"}),
    "dilations": (case([X], {"kernel_shape": [2, 3], "dilations": [3, 2]}),
                  {"y0": "[n, h - 3, w - 4, c]"}),
    "SAME_UPPER": (case([X], {"kernel_shape": [3, 3], "strides": [2, 3],
                              "auto_pad": "SAME_UPPER"}),
                   {"y0": "[n, (h + 1)//2, (w + 2)//3, c]"}),
    "SAME_LOWER, pads ignored": (case([X], {"kernel_shape": [2, 2], "strides": [2, 2],
                                            "auto_pad": "SAME_LOWER", "pads": [1, 1, 1, 1]}),
                                 {"y0": "[n, (h + 1)//2, (w + 1)//2, c]"}),
    # onnxruntime pads SAME for the undilated kernel: [1, 7, 3] by 3 dilated 3 gives 3
    "SAME with a dilation: that axis unknown": (
        case([X], {"kernel_shape": [3, 3], "auto_pad": "SAME_UPPER", "dilations": [3, 1]}),
        {"y0": "[n, _1, w, c]"}),
    "VALID": (case([X], {"kernel_shape": [3, 2], "strides": [2, 2], "auto_pad": "VALID"}),
              {"y0": "[n, (h + 1)//2 - 1, w//2, c]"}),
    # onnxruntime rounds VALID up under ceil_mode (3 by 2, stride 2: 2 windows), the spec not
    "VALID with ceil_mode: unknown": (case([X], {"kernel_shape": [2, 2], "strides": [2, 2],
                                                 "auto_pad": "VALID", "ceil_mode": 1}),
                                      {"y0": "[n, _1, _2, c]"}),
    "1-D": (case([("u8", "[n, 9, c]")], {"kernel_shape": [2]}), {"y0": "[n, 8, c]"}),
    "3-D": (case([("u8", "[2, d, 8, 8, 5]")], {"kernel_shape": [2, 2, 2], "strides": [2, 2, 2]}),
            {"y0": "[2, d//2, 4, 4, 5]"}),
    "rank from kernel_shape": (case([("u8", "x")], {"kernel_shape": [2, 2]}),
                               {"x0": "[_1, _2, _3, _4]"}),
    "backward: batch and channels from y": (
        case([("u8", "[n, 6, 6, c]")], {"kernel_shape": [2, 2]},
             outputs={"y0": {"shape": "[2, 5, 5, 7]"}}), {"x0": "[2, 6, 6, 7]"}),
    "empty batch": (case([("u8", "[0, 5, 5, 3]")], {"kernel_shape": [2, 2]}),
                    {"y0": "[0, 4, 4, 3]"}),
    # errors (onnxruntime rejects each)
    "float input": (case(["[n, h, w, c]"], {"kernel_shape": [2, 2]}), "error"),
    "rank 2": (case([("u8", "[n, c]")], {"kernel_shape": []}), "error"),
    "no kernel_shape": (case([X]), "error"),
    "kernel_shape for another rank": (case([X], {"kernel_shape": [2]}), "error"),
    "a pad as large as the kernel": (case([X], {"kernel_shape": [2, 2], "pads": [0, 2, 0, 0]}),
                                     "error"),
    "... even under auto_pad": (case([X], {"kernel_shape": [2, 2], "pads": [0, 0, 0, 2],
                                           "auto_pad": "SAME_UPPER"}), "error"),
    "negative pads": (case([X], {"kernel_shape": [3, 3], "pads": [-1, 0, 0, 0]}), "error"),
    "zero stride": (case([X], {"kernel_shape": [2, 2], "strides": [0, 1]}), "error"),
    "MaxPool's storage_order": (case([X], {"kernel_shape": [2, 2], "storage_order": 0}),
                                "input error"),
    "unknown auto_pad": (case([X], {"kernel_shape": [2, 2], "auto_pad": "SAME"}), "error"),
    "an empty axis but the batch": (case([("u8", "[1, 5, 0, 3]")], {"kernel_shape": [2, 2],
                                                                    "pads": [1, 1, 1, 1]}),
                                    "error"),
    "no channels": (case([("u8", "[1, 5, 5, 0]")], {"kernel_shape": [2, 2]}), "error"),
    # onnxruntime fails below size 0 and makes an empty output at 0: an error, as MaxPool's
    "the window fits nowhere": (case([("u8", "[1, 2, 2, 3]")], {"kernel_shape": [3, 3]}),
                                "error"),
    "two outputs": (dict(case([X], {"kernel_shape": [2, 2]}), n_outputs=2), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("NhwcMaxPool", spec, expected)


def maxpool_size(n, k, s, d, p, q, auto_pad, ceil):
    """The size rules/MaxPool.lp gives the axis of the channels-first view (below 1: the
    rules' error)."""
    e = d * (k - 1) + 1
    if auto_pad.startswith("SAME"):
        return -(-n // s)
    if auto_pad == "VALID":
        return (n - e) // s + 1
    if ceil:
        return (n + p - 1 + min(0, s + q - e)) // s + 1
    return (n + p + q - e) // s + 1


def known(auto_pad, ceil, d) -> bool:
    """Whether y's axis is the view's (else the rules leave it unknown)."""
    return not (auto_pad == "VALID" and ceil) and not (auto_pad.startswith("SAME") and d > 1)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.lists(st.integers(1, 7), min_size=1, max_size=3),
       k=st.integers(1, 3), stride=st.integers(1, 3), dilation=st.integers(1, 2),
       pads=st.lists(st.integers(0, 3), min_size=6, max_size=6),
       auto_pad=st.sampled_from(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]),
       ceil=st.booleans(), signed=st.booleans())
def test_matches_onnxruntime(seed, size, k, stride, dilation, pads, auto_pad, ceil, signed):
    rng = np.random.default_rng(seed)
    nsp = len(size)
    pads = [min(p, k - (p < 3)) for p in pads[:2 * nsp]]  # (3: as large as the kernel)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    x = rng.integers(lo, hi, [2] + size + [3]).astype(dtype)
    attrs = {"kernel_shape": [k] * nsp, "strides": [stride] * nsp,
             "dilations": [dilation] * nsp, "pads": pads, "auto_pad": auto_pad,
             "ceil_mode": int(ceil)}
    sizes = [maxpool_size(n, k, stride, dilation, pads[i], pads[nsp + i], auto_pad, ceil)
             for i, n in enumerate(size)]
    shape = [(str(x.dtype)[0] + "8", list(x.shape))]
    if min(sizes) < 1:  # the window fits nowhere (onnxruntime: a size of 0 or 1, or fails)
        assert infer_contrib("NhwcMaxPool", shape, attrs).status == "error"
    elif max(pads) < k and not known(auto_pad, ceil, dilation):
        # the rules leave the spatial axes unknown, whatever onnxruntime does
        kernel = load_kernel("NhwcMaxPool")(attrs, domain=MS)
        try:
            want = ort_contrib("NhwcMaxPool", [x], attrs)[0]
        except Exception:  # noqa: BLE001 - a negative size (SAME, dilated)
            with pytest.raises(ValueError):
                kernel(x)
        else:
            got = kernel(x)[0]
            assert got.shape == want.shape and (got == want).all()
        sol = infer_contrib("NhwcMaxPool", shape, attrs)
        assert sol.status == "ok"
        assert [d.value if d.is_int else "_" for d in sol.dims("y0")] == [2] + ["_"] * nsp + [3]
    else:
        check_against_onnxruntime("NhwcMaxPool", [x], attrs, rtol=0, atol=0)
