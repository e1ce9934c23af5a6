"""GlobalMaxPool: rules/GlobalMaxPool.lp on data cases, and against onnx's reference."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, infer, random_array

CASES = {
    "2-D image": ({"inputs": ["[n, c, h, w]"]}, {"y0": "[n, c, 1, 1]"}),
    "1-D": ({"inputs": ["[n, 3, t]"]}, {"y0": "[n, 3, 1]"}),
    "3-D": ({"inputs": ["[2, c, 4, 5, 6]"]}, {"y0": "[2, c, 1, 1, 1]"}),
    "dtype f64": ({"inputs": [("f64", "[1, 3, 4]")]}, {"y0": "[1, 3, 1]", "dtypes": {"y0": "f64"}}),
    "backward: rank, batch and channels": ({"inputs": ["s"], "outputs": {"y0": {"shape": "[2, 8, 1, 1]"}}},
                                           {"x0": "[2, 8, _1, _2]"}),
    # errors
    "integer input": ({"inputs": [("i64", "[1, 3, 4]")]}, "error"),
    "rank 2": ({"inputs": ["[2, 3]"]}, "error"),
    "rank 1": ({"inputs": ["[2]"]}, "error"),
    "pooled axis not 1": ({"inputs": ["[1, 3, 4]"], "outputs": {"y0": {"shape": "[1, 3, 4]"}}},
                          "error"),
    "dtype clash": ({"inputs": [("f32", "[1, 3, 4]")],
                     "outputs": {"y0": {"dtype": "f16", "shape": "[1, 3, 1]"}}}, "error"),
    "two inputs": ({"inputs": ["[1, 3, 4]", "[1, 3, 4]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("GlobalMaxPool", *CASES[name])


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=5), st.sampled_from(["f32", "f64"]))
def test_matches_reference(shape, dtype):
    x = random_array(shape, dtype)
    if len(shape) < 3:  # onnxruntime needs a spatial axis; onnx's reference does not
        assert infer("GlobalMaxPool", [(dtype, str(shape))]).status == "error"
        return
    if len(shape) != 4:
        # onnx's reference reduces axes k, k+1 for k spatial axes: right for 2-D images only
        sol = infer("GlobalMaxPool", [(dtype, str(shape))])
        assert sol.shape("y0") == str(shape[:2] + [1] * (len(shape) - 2))
        assert sol.dtype("y0") == dtype
        return
    check_against_reference("GlobalMaxPool", [x])
