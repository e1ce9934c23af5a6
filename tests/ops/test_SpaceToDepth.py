"""SpaceToDepth: rules/SpaceToDepth.lp on data cases, and against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "blocksize 2": ({"inputs": ["[n, c, 4, 6]"], "attrs": {"blocksize": 2}},
                    {"y0": "[n, 4*c, 2, 3]"}),
    "symbolic rows": ({"inputs": ["[n, 3, 2*h, 2*w]"], "attrs": {"blocksize": 2}},
                      {"y0": "[n, 12, h, w]"}),
    "mode CRD": ({"inputs": ["[n, 2, 4, 6]"], "attrs": {"blocksize": 2, "mode": "CRD"}},
                 {"y0": "[n, 8, 2, 3]"}),
    "dtype kept": ({"inputs": [("bool", "[1, 1, 3, 3]")], "attrs": {"blocksize": 3}},
                   {"y0": "[1, 9, 1, 1]", "dtypes": {"y0": "bool"}}),
    "opset 1": ({"inputs": ["[n, c, 4, 6]"], "attrs": {"blocksize": 2}, "opset": 1},
                {"y0": "[n, 4*c, 2, 3]"}),
    "backward": ({"inputs": ["x"], "attrs": {"blocksize": 2},
                  "outputs": {"y0": {"shape": "[1, 12, 2, 3]"}}}, {"x0": "[1, 3, 4, 6]"}),
    "backward, symbolic": ({"inputs": ["[n, c, h, w]"], "attrs": {"blocksize": 2},
                            "outputs": {"y0": {"shape": "[n, 12, 2, 3]"}}},
                           {"bindings": {"c": 3, "h": 4, "w": 6}}),
    "rows not divisible": ({"inputs": ["[n, c, 5, 6]"], "attrs": {"blocksize": 2}}, "error"),
    "output channels not divisible": ({"inputs": ["x"], "attrs": {"blocksize": 2},
                                       "outputs": {"y0": {"shape": "[1, 13, 2, 3]"}}},
                                      "error"),
    "5-D input": ({"inputs": ["[n, c, d, 4, 6]"], "attrs": {"blocksize": 2}}, "error"),
    "no blocksize": ({"inputs": ["[n, c, 4, 6]"]}, "error"),
    "negative blocksize": ({"inputs": ["[n, c, 4, 6]"], "attrs": {"blocksize": -2}}, "error"),
    "unknown mode": ({"inputs": ["[n, c, 4, 6]"], "attrs": {"blocksize": 2, "mode": "X"}},
                     "error"),
}


test_case = case_test("SpaceToDepth", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=3, max_size=5), st.integers(1, 3),
       st.sampled_from(["DCR", "CRD"]))
def test_matches_reference(shape, blocksize, mode):
    # rows or columns not divisible by blocksize, ranks other than 4: the reference rejects them
    check_against_reference("SpaceToDepth", [random_array(shape)],
                            {"blocksize": blocksize, "mode": mode})
