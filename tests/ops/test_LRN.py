"""LRN: rules/LRN.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "shape kept": ({"inputs": ["[n, c, h, w]"], "attrs": {"size": 3}}, {"y0": "[n, c, h, w]"}),
    "every attribute": ({"inputs": ["[n, c, h, w]"],
                         "attrs": {"size": 5, "alpha": 0.001, "beta": 0.5, "bias": 2.0}},
                        {"y0": "[n, c, h, w]"}),
    "dtype kept": ({"inputs": [("f16", "[1, 2, 3, 4]")], "attrs": {"size": 1}},
                   {"y0": "[1, 2, 3, 4]", "dtypes": {"y0": "f16"}}),
    "opset 1": ({"inputs": ["[n, c, h, w]"], "attrs": {"size": 3}, "opset": 1},
                {"y0": "[n, c, h, w]"}),
    "backward": ({"inputs": ["x"], "attrs": {"size": 3},
                  "outputs": {"y0": {"shape": "[2, 3, 4, 5]"}}}, {"x0": "[2, 3, 4, 5]"}),
    "no size": ({"inputs": ["[n, c, h, w]"]}, "error"),
    "size 0": ({"inputs": ["[n, c, h, w]"], "attrs": {"size": 0}}, "error"),
    "3-D input": ({"inputs": ["[n, c, h]"], "attrs": {"size": 3}}, "error"),
    "5-D input": ({"inputs": ["[n, c, d, h, w]"], "attrs": {"size": 3}}, "error"),
    "two inputs": ({"inputs": ["[n, c, h, w]", "[n, c, h, w]"], "attrs": {"size": 3}},
                   "error"),
    "output clash": ({"inputs": ["[1, 2, 3, 4]"], "attrs": {"size": 3},
                      "outputs": {"y0": {"shape": "[1, 2, 3, 5]"}}}, "error"),
}


test_case = case_test("LRN", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=2, max_size=5), st.integers(1, 4))
def test_matches_reference(shape, size):
    # ranks other than 4: the reference (and onnxruntime) reject them. The reference
    # loops over the batch axis as if it were the channels: keep the batch <= channels
    shape[0] = min(shape[0], shape[1])
    check_against_reference("LRN", [random_array(shape)], {"size": size})
