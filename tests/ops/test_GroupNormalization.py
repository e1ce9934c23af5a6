"""GroupNormalization: rules/GroupNormalization.lp on data cases, and against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

CASES = {
    "opset 21: scale per channel": ({"inputs": ["[n, c, h, w]", "[c1]", "[c2]"], "opset": 21,
                                     "attrs": {"num_groups": 2}},
                                    {"y0": "[n, c, h, w]", "x1": "[c]", "x2": "[c]"}),
    "opset 18: scale per group": ({"inputs": ["[n, c, h, w]", "[s]", "[b]"], "opset": 18,
                                   "attrs": {"num_groups": 2}},
                                  {"y0": "[n, c, h, w]", "x1": "[2]", "x2": "[2]",
                                   "bindings": {"b": 2, "s": 2}}),
    "channels from scale": ({"inputs": ["[n, c, t]", "[6]", "[b]"], "opset": 21,
                             "attrs": {"num_groups": 3}},
                            {"y0": "[n, 6, t]", "bindings": {"b": 6, "c": 6}}),
    "rank 2": ({"inputs": ["[2, 6]", "[6]", "[6]"], "opset": 21, "attrs": {"num_groups": 3}},
               {"y0": "[2, 6]"}),
    "dtype f16": ({"inputs": [("f16", "[1, 4, 3]"), ("f16", "[4]"), ("f16", "[4]")], "opset": 21,
                   "attrs": {"num_groups": 4}}, {"dtypes": {"y0": "f16"}}),
    "backward": ({"inputs": ["x", "[s]", "[b]"], "opset": 21, "attrs": {"num_groups": 2},
                  "outputs": {"y0": {"shape": "[2, 6, 7]"}}},
                 {"x0": "[2, 6, 7]", "bindings": {"b": 6, "s": 6}}),
    # errors
    "integer input": ({"inputs": [("i32", "[2, 6, 4]"), ("i32", "[6]"), ("i32", "[6]")],
                       "opset": 21,
                       "attrs": {"num_groups": 3}}, "error"),
    "groups do not divide channels": ({"inputs": ["[2, 6, 4]", "[6]", "[6]"], "opset": 21,
                                       "attrs": {"num_groups": 4}}, "error"),
    "no num_groups": ({"inputs": ["[2, 6, 4]", "[6]", "[6]"], "opset": 21}, "error"),
    "zero groups": ({"inputs": ["[2, 6, 4]", "[6]", "[6]"], "opset": 21,
                     "attrs": {"num_groups": 0}},
                    "error"),
    "rank 1": ({"inputs": ["[6]", "[6]", "[6]"], "opset": 21, "attrs": {"num_groups": 3}}, "error"),
    "opset 21: scale per group": ({"inputs": ["[2, 6, 4]", "[3]", "[3]"], "opset": 21,
                                   "attrs": {"num_groups": 3}}, "error"),
    "opset 18: scale per channel": ({"inputs": ["[2, 6, 4]", "[6]", "[6]"], "opset": 18,
                                     "attrs": {"num_groups": 3}}, "error"),
    "dtype mismatch": ({"inputs": ["[2, 6, 4]", ("f16", "[6]"), "[6]"], "opset": 21,
                        "attrs": {"num_groups": 3}}, "error"),
}


test_case = case_test("GroupNormalization", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.integers(1, 3),
       st.integers(1, 3), st.sampled_from([18, 21]), st.sampled_from([0] * 6 + [1, 2]))
def test_matches_reference(spatial, groups, per_group, opset, kind):
    c = groups * per_group + (kind == 2)  # sometimes not divisible by the groups
    x_shape = [2, c] + spatial[1:]
    want = c if opset >= 21 else groups
    p = [want, 1][kind == 1]  # sometimes a [1] (broadcasts in the reference only)
    arrays = [random_array(x_shape), random_array([p]), random_array([p])]
    attrs = {"num_groups": groups}
    if p != want:
        sol = infer("GroupNormalization", [list(a.shape) for a in arrays], attrs, opset=opset)
        assert sol.status == "error"
        return
    check_against_reference("GroupNormalization", arrays, attrs, opset=opset)
