"""EyeLike: rules/EyeLike.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "the input's shape and type": ({"inputs": [("i32", "[n, m]")]},
                                   {"y0": "[n, m]", "dtypes": {"y0": "i32"}}),
    "dtype given": ({"inputs": ["[n, 3]"], "attrs": {"dtype": 7, "k": 1}},
                    {"y0": "[n, 3]", "dtypes": {"y0": "i64"}}),
    "bool": ({"inputs": ["[2, 2]"], "attrs": {"dtype": 9}}, {"dtypes": {"y0": "bool"}}),
    "backward: a matrix": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[4, k]"}}},
                           {"x0": "[4, k]"}),
    "a vector": ({"inputs": ["[3]"]}, "error"),
    "rank 3": ({"inputs": ["[3, 3, 3]"]}, "error"),
    "a string dtype": ({"inputs": ["[3, 3]"], "attrs": {"dtype": 8}}, "error"),
    "output dtype clashes": ({"inputs": ["[3, 3]"], "attrs": {"dtype": 1},
                              "outputs": {"y0": {"dtype": "f64"}}}, "error"),
}


test_case = case_test("EyeLike", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=2), st.integers(-6, 6),
       st.sampled_from([None, 1, 6, 7, 9, 10, 11]), st.sampled_from(["f32", "i64", "bool"]))
def test_matches_reference(shape, k, dtype, src):
    attrs = {"k": k} if dtype is None else {"k": k, "dtype": dtype}
    check_against_reference("EyeLike", [random_array(shape, src)], attrs, opset=OPSET)
