"""InstanceNormalization: rules/InstanceNormalization.lp on data cases, and against onnx's
reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

CASES = {
    "2-D image": ({"inputs": ["[n, c, h, w]", "[c1]", "[c2]"]},
                  {"y0": "[n, c, h, w]", "x1": "[c]", "x2": "[c]",
                   "bindings": {"c1": "c", "c2": "c"}}),
    "channels from scale": ({"inputs": ["[n, c, t]", "[3]", "[b]"]},
                            {"y0": "[n, 3, t]", "x2": "[3]", "bindings": {"b": 3, "c": 3}}),
    "3-D": ({"inputs": ["[1, 2, 3, 4, 5]", "[2]", "[2]"]}, {"y0": "[1, 2, 3, 4, 5]"}),
    "dtype f16": ({"inputs": [("f16", "[1, 2, 3]"), ("f16", "[2]"), ("f16", "[2]")]},
                  {"dtypes": {"y0": "f16"}}),
    "backward": ({"inputs": ["x", "[s]", "[b]"], "outputs": {"y0": {"shape": "[2, 6, 7]"}}},
                 {"x0": "[2, 6, 7]", "bindings": {"b": 6, "s": 6}}),
    # errors
    "integer input": ({"inputs": [("i32", "[2, 3, 4]"), ("i32", "[3]"), ("i32", "[3]")]}, "error"),
    "rank 2": ({"inputs": ["[2, 3]", "[3]", "[3]"]}, "error"),
    "channel mismatch": ({"inputs": ["[2, 3, 4]", "[4]", "[3]"]}, "error"),
    "scale of length 1": ({"inputs": ["[2, 3, 4]", "[1]", "[3]"]}, "error"),
    "bias of rank 2": ({"inputs": ["[2, 3, 4]", "[3]", "[3, 1]"]}, "error"),
    "dtype mismatch": ({"inputs": ["[2, 3, 4]", ("f16", "[3]"), "[3]"]}, "error"),
    "no bias": ({"inputs": ["[2, 3, 4]", "[3]"]}, "error"),
}


test_case = case_test("InstanceNormalization", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4),
       st.lists(st.sampled_from([0] * 5 + [1, 2]), min_size=2, max_size=2),
       st.sampled_from(["f32", "f64"]))
def test_matches_reference(x_shape, kinds, dtype):
    c = x_shape[1] if len(x_shape) > 1 else x_shape[0]
    params = [[c, c + 1, 1][k] for k in kinds]  # [c], a clash, or a broadcasting [1]
    arrays = [random_array(x_shape, dtype)] + [random_array([p], dtype) for p in params]
    if len(x_shape) < 3 or any(p != c and 1 in (p, c) for p in params):
        # onnxruntime rejects these; the reference runs them
        sol = infer("InstanceNormalization", [(dtype, str(list(a.shape))) for a in arrays])
        assert sol.status == "error"
        return
    check_against_reference("InstanceNormalization", arrays)
