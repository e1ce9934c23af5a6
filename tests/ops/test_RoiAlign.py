"""RoiAlign: rules/RoiAlign.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 16
CASES = {
    "one output per region": ({"inputs": ["[n, c, h, w]", "[k, 4]", ("i64", "B")],
                               "attrs": {"output_height": 7, "output_width": 5}},
                              {"y0": "[k, c, 7, 5]", "x2": "[k]"}),
    "default output 1 x 1": ({"inputs": ["[1, 8, 5, 5]", "R", ("i64", "[3]")]},
                             {"y0": "[3, 8, 1, 1]", "x1": "[3, 4]"}),
    "backward: the regions from the output": ({"inputs": ["[1, 8, 5, 5]", "R", ("i64", "B")],
                                               "outputs": {"y0": {"shape": "[6, 8, 1, 1]"}}},
                                              {"x1": "[6, 4]", "x2": "[6]"}),
    "regions and indices differ": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i64", "[2]")]},
                                   "error"),
    "regions of 5 columns": ({"inputs": ["[1, 8, 5, 5]", "[3, 5]", ("i64", "[3]")]}, "error"),
    "3-d X": ({"inputs": ["[8, 5, 5]", "[3, 4]", ("i64", "[3]")]}, "error"),
    "int32 indices": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]")]}, "error"),
    "regions of another type": ({"inputs": ["[1, 8, 5, 5]", ("f64", "[3, 4]"), ("i64", "[3]")]},
                                "error"),
    "a zero output height": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i64", "[3]")],
                              "attrs": {"output_height": 0}}, "error"),
    "an unknown mode": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i64", "[3]")],
                         "attrs": {"mode": "min"}}, "error"),
}


test_case = case_test("RoiAlign", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 2), st.integers(1, 3), st.integers(2, 7), st.integers(2, 7),
       st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.data())
def test_matches_reference(n, c, h, w, k, oh, ow, data):
    rng = np.random.default_rng(k * 31 + h)
    corners = rng.uniform(-1, max(h, w) + 1, (k, 2, 2))
    rois = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1).astype(np.float32)
    batch = rng.integers(0, n, k).astype(np.int64)
    attrs = {"output_height": oh, "output_width": ow,
             "sampling_ratio": data.draw(st.integers(0, 2)),
             "mode": data.draw(st.sampled_from(["avg", "max"])),
             "coordinate_transformation_mode": data.draw(st.sampled_from(
                 ["half_pixel", "output_half_pixel"])),
             "spatial_scale": data.draw(st.sampled_from([1.0, 0.5]))}
    check_against_reference("RoiAlign", [random_array([n, c, h, w]), rois, batch], attrs,
                            opset=OPSET)
