"""MaxpoolWithMask (com.microsoft): rules/MaxpoolWithMask.lp on data cases, and the rules and
the kernel against onnxruntime (strides, pads, auto_pad, 1-D to 3-D, masks of any density
and of other batch and channel sizes)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, infer_contrib, ms_case as case

M = ("i32", "M")
CASES = {
    "3x3, stride 2, padded": (case(["[n, c, h, w]", M], {"kernel_shape": [3, 3],
                                                         "strides": [2, 2],
                                                         "pads": [1, 1, 1, 1]}),
                              {"y0": "[n, c, (h + 1)//2, (w + 1)//2]", "x1": "[_1, _2, h, w]",
                               "dtypes": {"y0": "f32"}}),
    "the mask's batch and channels are its own": (
        case(["[n, c, h, w]", ("i32", "[1, 1, 6, 6]")], {"kernel_shape": [2, 2]}),
        {"y0": "[n, c, 5, 5]", "x0": "[n, c, 6, 6]"}),
    "SAME_LOWER": (case(["[n, c, h, w]", M], {"kernel_shape": [2, 2], "strides": [2, 3],
                                               "auto_pad": "SAME_LOWER"}),
                   {"y0": "[n, c, (h + 1)//2, (w + 2)//3]"}),
    "VALID, pads ignored": (case(["[n, c, h]", M], {"kernel_shape": [2], "strides": [2],
                                                    "auto_pad": "VALID", "pads": [1, 1]}),
                            {"y0": "[n, c, h//2]"}),
    "3-D": (case(["[1, 2, d, 4, 4]", M], {"kernel_shape": [2, 2, 2], "strides": [2, 2, 2]}),
            {"y0": "[1, 2, d//2, 2, 2]", "x1": "[_1, _2, d, 4, 4]"}),
    "storage_order, accepted and unused": (
        case(["[1, 2, 5, 5]", M], {"kernel_shape": [2, 2], "storage_order": 1}),
        {"y0": "[1, 2, 4, 4]"}),
    "empty batch": (case(["[0, 2, 5, 5]", M], {"kernel_shape": [2, 2]}), {"y0": "[0, 2, 4, 4]"}),
    # errors (onnxruntime rejects each)
    "float16 x": (case([("f16", "[1, 2, 5, 5]"), M], {"kernel_shape": [2, 2]}), "error"),
    "an int64 mask": (case(["[1, 2, 5, 5]", ("i64", "[1, 2, 5, 5]")], {"kernel_shape": [2, 2]}),
                      "error"),
    "the mask's rank differs": (case(["[1, 2, 5, 5]", ("i32", "[5, 5]")],
                                     {"kernel_shape": [2, 2]}), "error"),
    "the mask's spatial sizes differ": (case(["[1, 2, 5, 5]", ("i32", "[1, 2, 5, 4]")],
                                             {"kernel_shape": [2, 2]}), "error"),
    "a mask without channels": (case(["[1, 2, 5, 5]", ("i32", "[1, 0, 5, 5]")],
                                     {"kernel_shape": [2, 2]}), "error"),
    "four spatial axes": (case(["[1, 2, 4, 4, 4, 4]", M], {"kernel_shape": [2, 2, 2, 2]}),
                          "error"),
    "MaxPool's dilations": (case(["[1, 2, 5, 5]", M], {"kernel_shape": [2, 2],
                                                       "dilations": [1, 1]}), "input error"),
    "MaxPool's ceil_mode": (case(["[1, 2, 5, 5]", M], {"kernel_shape": [2, 2], "ceil_mode": 0}),
                            "input error"),
    "no kernel_shape": (case(["[1, 2, 5, 5]", M]), "error"),
    "a pad as large as the kernel": (case(["[1, 2, 5, 5]", M], {"kernel_shape": [2, 2],
                                                                "pads": [0, 0, 2, 0]}),
                                     "error"),
    "no channels": (case(["[1, 0, 5, 5]", M], {"kernel_shape": [2, 2]}), "error"),
    # onnxruntime fails below size 0 and makes an empty output at 0: an error, as MaxPool's
    "the window fits nowhere": (case(["[1, 2, 2, 2]", M], {"kernel_shape": [3, 3]}), "error"),
    "two outputs": (dict(case(["[1, 2, 5, 5]", M], {"kernel_shape": [2, 2]}), n_outputs=2),
                    "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("MaxpoolWithMask", spec, expected)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.lists(st.integers(1, 6), min_size=1, max_size=3),
       k=st.integers(1, 3), stride=st.integers(1, 3),
       pads=st.lists(st.integers(0, 3), min_size=6, max_size=6),
       auto_pad=st.sampled_from(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]),
       mask_nc=st.lists(st.integers(1, 3), min_size=2, max_size=2),
       density=st.sampled_from([0.3, 0.7, 1.0]))
def test_matches_onnxruntime(seed, size, k, stride, pads, auto_pad, mask_nc, density):
    rng = np.random.default_rng(seed)
    nd = len(size)
    pads = [min(p, k - (p < 3)) for p in pads[:2 * nd]]  # (3: as large as the kernel)
    x = rng.standard_normal([2, 3] + size).astype(np.float32)
    m = (rng.random(mask_nc + size) < density).astype(np.int32)
    attrs = {"kernel_shape": [k] * nd, "strides": [stride] * nd, "auto_pad": auto_pad}
    if auto_pad == "NOTSET":
        attrs["pads"] = pads
    ends = pads if auto_pad == "NOTSET" else [0] * (2 * nd)
    if not auto_pad.startswith("SAME") and \
            any(n + ends[i] + ends[nd + i] < k for i, n in enumerate(size)):
        # the window fits nowhere: onnxruntime gives a size of 0 or 1, or fails
        sol = infer_contrib("MaxpoolWithMask", [list(x.shape), ("i32", list(m.shape))], attrs)
        assert sol.status == "error"
    else:
        check_against_onnxruntime("MaxpoolWithMask", [x, m], attrs, rtol=0, atol=0)
