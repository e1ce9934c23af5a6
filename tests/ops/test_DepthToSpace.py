"""DepthToSpace: rules/DepthToSpace.lp on data cases, and against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "DCR (default)": ({"inputs": ["[n, 8, h, w]"], "attrs": {"blocksize": 2}},
                      {"y0": "[n, 2, 2*h, 2*w]"}),
    "CRD": ({"inputs": ["[n, 18, 2, 5]"], "attrs": {"blocksize": 3, "mode": "CRD"}},
            {"y0": "[n, 2, 6, 15]"}),
    "symbolic channels": ({"inputs": ["[n, 4*c, h, w]"], "attrs": {"blocksize": 2}},
                          {"y0": "[n, c, 2*h, 2*w]"}),
    "blocksize 1": ({"inputs": ["[n, c, h, w]"], "attrs": {"blocksize": 1}},
                    {"y0": "[n, c, h, w]"}),
    "dtype kept": ({"inputs": [("i8", "[1, 4, 1, 1]")], "attrs": {"blocksize": 2}},
                   {"y0": "[1, 1, 2, 2]", "dtypes": {"y0": "i8"}}),
    "opset 1": ({"inputs": ["[n, 8, h, w]"], "attrs": {"blocksize": 2}, "opset": 1},
                {"y0": "[n, 2, 2*h, 2*w]"}),
    "backward": ({"inputs": ["x"], "attrs": {"blocksize": 2},
                  "outputs": {"y0": {"shape": "[1, 3, 4, 6]"}}}, {"x0": "[1, 12, 2, 3]"}),
    "backward, symbolic": ({"inputs": ["[n, c, h, w]"], "attrs": {"blocksize": 2},
                            "outputs": {"y0": {"shape": "[n, 3, 8, 6]"}}},
                           {"bindings": {"c": 12, "h": 4, "w": 3}}),
    "channels not divisible": ({"inputs": ["[n, 6, h, w]"], "attrs": {"blocksize": 2}},
                               "error"),
    "odd output rows": ({"inputs": ["x"], "attrs": {"blocksize": 2},
                         "outputs": {"y0": {"shape": "[1, 3, 5, 6]"}}}, "error"),
    "3-D input": ({"inputs": ["[n, 8, h]"], "attrs": {"blocksize": 2}}, "error"),
    "no blocksize": ({"inputs": ["[n, 8, h, w]"]}, "error"),
    "blocksize 0": ({"inputs": ["[n, 8, h, w]"], "attrs": {"blocksize": 0}}, "error"),
    "unknown mode": ({"inputs": ["[n, 8, h, w]"], "attrs": {"blocksize": 2, "mode": "RCD"}},
                     "error"),
}


test_case = case_test("DepthToSpace", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=3, max_size=5), st.integers(1, 9),
       st.integers(1, 3), st.sampled_from(["DCR", "CRD"]))
def test_matches_reference(shape, channels, blocksize, mode):
    # channels not divisible by blocksize^2, ranks other than 4: the reference rejects them
    shape[1] = channels
    check_against_reference("DepthToSpace", [random_array(shape)],
                            {"blocksize": blocksize, "mode": mode})
