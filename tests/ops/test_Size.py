"""Size: rules/Size.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "a scalar int64": ({"inputs": ["[b, s, 768]"]}, {"y0": "[]", "dtypes": {"y0": "i64"}}),
    "of a scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "of any dtype": ({"inputs": [("bool", "[2]")]}, {"y0": "[]", "dtypes": {"y0": "i64"}}),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
    "output of rank 1": ({"inputs": ["[2]"], "outputs": {"y0": {"shape": "[1]"}}}, "error"),
}


test_case = case_test("Size", CASES, OPSET)


def test_value_is_the_count():
    """Size -> Unsqueeze -> Reshape: the element count as a shape."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, 768]"}, "d": {"shape": "D"}},
         "initializers": {"ax": {"dtype": "i64", "shape": [1], "data": [0]}},
         "nodes": [{"op": "Size", "inputs": ["x"], "outputs": ["n"]},
                   {"op": "Unsqueeze", "inputs": ["n", "ax"], "outputs": ["u"]},
                   {"op": "Reshape", "inputs": ["d", "u"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("r") == "[768*b*s]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(["f32", "i64", "bool"]))
def test_matches_reference(shape, dtype):
    check_against_reference("Size", [random_array(shape, dtype)], opset=OPSET)
