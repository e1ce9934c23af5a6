"""Det: rules/Det.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "one matrix": ({"inputs": ["[3, 3]"]}, {"y0": "[]"}),
    "a batch of matrices": ({"inputs": [("f64", "[b, n, m]")]},
                            {"y0": "[b]", "x0": "[b, m, m]", "dtypes": {"y0": "f64"}}),
    "square: the other axis from one": ({"inputs": ["[2, k, 4]"]}, {"x0": "[2, 4, 4]"}),
    "backward: the batch from the output": ({"inputs": ["X"],
                                             "outputs": {"y0": {"shape": "[5, 2]"}}},
                                            {"x0": "[5, 2, _1, _1]"}),
    "not square": ({"inputs": ["[2, 3]"]}, "error"),
    "a vector": ({"inputs": ["[3]"]}, "error"),
    "integer elements": ({"inputs": [("i64", "[2, 2]")]}, "error"),
}


test_case = case_test("Det", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), max_size=2), st.integers(1, 4), st.integers(0, 1))
def test_matches_reference(batch, m, extra):
    check_against_reference("Det", [random_array(batch + [m, m + extra])])
