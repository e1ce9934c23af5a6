"""SwiGLU: rules/SwiGLU.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 28
CASES = {
    "one shape": ({"inputs": ["[b, s, 11008]", "[b, s, 11008]"]}, {"y0": "[b, s, 11008]"}),
    "shapes tie": ({"inputs": ["[b, s, f]", "[b, t, 64]"]},
                   {"x0": "[b, s, 64]", "x1": "[b, s, 64]", "y0": "[b, s, 64]"}),
    "dtype": ({"inputs": [("f16", "[4]"), ("f16", "[4]")], "attrs": {"alpha": 1.702}},
              {"dtypes": {"y0": "f16"}}),
    "no broadcasting": ({"inputs": ["[2, 4]", "[4]"]}, "error"),
    "types differ": ({"inputs": ["[4]", ("f16", "[4]")]}, "error"),
    "integer elements": ({"inputs": [("i32", "[4]"), ("i32", "[4]")]}, "error"),
    "one input": ({"inputs": ["[4]"]}, "error"),
}


test_case = case_test("SwiGLU", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(["f16", "f32", "f64"]),
       st.floats(0.1, 2))
def test_matches_reference(shape, dtype, alpha):
    check_against_reference("SwiGLU", [random_array(shape, dtype), random_array(shape, dtype)],
                            {"alpha": alpha}, opset=OPSET)
