"""NonMaxSuppression: rules/NonMaxSuppression.lp on data cases (a data-dependent count
with its bound), and against onnx's reference on random boxes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import infer, random_array, reference_outputs
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, np.int64)


CASES = {
    "a fresh count, three columns": ({"inputs": ["[b, s, 4]", "[b, c, s]"]},
                                     {"y0": "[_c1, 3]", "dtypes": {"y0": "i64"}}),
    "boxes and scores tie": ({"inputs": ["B", "[2, 3, 10]", i64([5])]},
                             {"x0": "[2, 10, 4]", "y0": "[_c1, 3]"}),
    "backward: the count named": ({"inputs": ["[1, 6, 4]", "[1, 2, 6]"],
                                   "outputs": {"y0": {"shape": "[k, 3]"}}}, {"y0": "[k, 3]"}),
    "boxes of 5 coordinates": ({"inputs": ["[1, 6, 5]", "[1, 2, 6]"]}, "error"),
    "box counts differ": ({"inputs": ["[1, 6, 4]", "[1, 2, 5]"]}, "error"),
    "float64 boxes": ({"inputs": [("f64", "[1, 6, 4]"), "[1, 2, 6]"]}, "error"),
    "two counts": ({"inputs": ["[1, 6, 4]", "[1, 2, 6]", i64([1, 2])]}, "error"),
    "an output of 4 columns": ({"inputs": ["[1, 6, 4]", "[1, 2, 6]"],
                                "outputs": {"y0": {"shape": "[k, 4]"}}}, "error"),
    "center_point_box 2": ({"inputs": ["[1, 6, 4]", "[1, 2, 6]"],
                            "attrs": {"center_point_box": 2}}, "error"),
}


test_case = case_test("NonMaxSuppression", CASES, OPSET)


def test_the_count_is_bounded():
    sol = infer("NonMaxSuppression", ["[2, 10, 4]", "[2, 3, 10]", i64([4])], opset=OPSET)
    assert sol.to_json()["ranges"] == {"_c1": [0, 24]}  # 2 * 3 * min(10, 4)
    sol = infer("NonMaxSuppression", ["[b, s, 4]", "[b, c, s]"], opset=OPSET)
    assert sol.to_json()["ranges"] == {"_c1": [0, "b*c*s"]}


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 2), st.integers(1, 3), st.integers(1, 8), st.integers(0, 5),
       st.floats(0, 1), st.sampled_from([0, 1]), st.integers(0, 2**32 - 1))
def test_matches_reference(b, c, s, m, iou, center, seed):
    # the reference's rows, and a count within the bound the rules give
    rng = np.random.default_rng(seed)
    boxes = rng.uniform(0, 4, (b, s, 4)).astype(np.float32)
    inputs = [boxes, random_array([b, c, s], rng=rng), i64([m]), np.array([iou], np.float32)]
    attrs = {"center_point_box": center}
    (want,) = reference_outputs("NonMaxSuppression", inputs, attrs, opset=OPSET)
    from shape_logic.kernels import load_kernel

    (got,) = load_kernel("NonMaxSuppression")(attrs)(*inputs)
    assert np.array_equal(got, want)
    sol = infer("NonMaxSuppression", [[b, s, 4], [b, c, s], i64([m]),
                                      np.array([iou], np.float32)], attrs, opset=OPSET)
    assert sol.status == "ok" and sol.dtype("y0") == "i64"
    dims = sol.dims("y0")
    assert dims[1] == 3 and not dims[0].is_int
    assert want.shape[0] <= sol.to_json()["ranges"][str(dims[0])][1] == b * c * min(s, m)
