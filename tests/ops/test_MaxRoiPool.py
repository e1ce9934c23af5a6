"""MaxRoiPool: rules/MaxRoiPool.lp on data cases, and against onnxruntime (onnx's reference
has no MaxRoiPool; onnxruntime registers it up to opset 21)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case, infer

CASES = {
    "regions pooled to 7 x 7": ({"inputs": ["[n, 256, h, w]", "[k, 5]"],
                                 "attrs": {"pooled_shape": [7, 7], "spatial_scale": 0.0625}},
                                {"y0": "[k, 256, 7, 7]"}),
    "the rois' width": ({"inputs": ["[n, c, h, w]", "R"], "attrs": {"pooled_shape": [2, 3]}},
                        {"x1": "[_1, 5]", "y0": "[_1, c, 2, 3]"}),
    "backward: regions and channels from the output": (
        {"inputs": ["[n, c, h, w]", "[k, 5]"], "attrs": {"pooled_shape": [2, 2]},
         "outputs": {"y0": {"shape": "[10, 64, 2, 2]"}}},
        {"x0": "[n, 64, h, w]", "x1": "[10, 5]"}),
    "four numbers per region": ({"inputs": ["[n, c, h, w]", "[k, 4]"],
                                 "attrs": {"pooled_shape": [2, 2]}}, "error"),
    "no pooled_shape": ({"inputs": ["[n, c, h, w]", "[k, 5]"]}, "error"),
    "one pooled size": ({"inputs": ["[n, c, h, w]", "[k, 5]"], "attrs": {"pooled_shape": [2]}},
                        "error"),
    "a 3-D image": ({"inputs": ["[c, h, w]", "[k, 5]"], "attrs": {"pooled_shape": [2, 2]}},
                    "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("MaxRoiPool", {"opset": 21, **CASES[name][0]}, CASES[name][1])


def random_rois(rng, n, k, h, w):
    return np.stack([rng.integers(0, n, k), rng.uniform(-2, 2 * w, k), rng.uniform(-2, 2 * h, k),
                     rng.uniform(0, 2 * w, k), rng.uniform(0, 2 * h, k)], 1).astype(np.float32)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 2), st.integers(1, 3), st.integers(3, 9), st.integers(3, 9),
       st.integers(1, 3), st.lists(st.integers(1, 3), min_size=2, max_size=2))
def test_matches_onnxruntime(n, c, h, w, k, pooled):
    from tests.kernels.reference import ort_outputs

    rng = np.random.default_rng(h * w)
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    attrs = {"pooled_shape": pooled}
    (want,) = ort_outputs("MaxRoiPool", [x, random_rois(rng, n, k, h, w)], attrs, 1, 21, ())
    sol = infer("MaxRoiPool", [[n, c, h, w], [k, 5]], attrs, opset=21)
    assert sol.shape("y0") == "[" + ", ".join(map(str, want.shape)) + "]"
