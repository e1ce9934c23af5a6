"""NonZero: rules/NonZero.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import infer, random_array, reference_outputs
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "rank rows, a data-dependent count": ({"inputs": ["[b, s, d]"]},
                                          {"y0": "[3, _c1]", "dtypes": {"y0": "i64"}}),
    "a vector": ({"inputs": [("bool", "[n]")]}, {"y0": "[1, _c1]"}),
    "a scalar": ({"inputs": ["[]"]}, {"y0": "[0, _c1]"}),
    # a constant input: every element known, the count is theirs
    "a constant input": ({"inputs": [np.array([1, 0, 2], np.int64)]}, {"y0": "[1, 2]"}),
    "a constant bool matrix": ({"inputs": [np.array([[True, False], [True, True]])]},
                               {"y0": "[2, 3]"}),
    "a small float constant of integers": ({"inputs": [np.array([0, 1, 0, -2], np.float32)]},
                                           {"y0": "[1, 2]"}),
    # (an element that is no integer is not counted: real values are not compared with 0)
    "a small float constant": ({"inputs": [np.array([0.0, 1.5, 0.0, -2.0], np.float32)]},
                               {"y0": "[1, _c1]"}),
    "backward: the rank from the output": ({"inputs": ["X"],
                                            "outputs": {"y0": {"shape": "[2, n]"}}},
                                           {"x0": "[_1, _2]"}),
    "output rows differ from the rank": ({"inputs": ["[b, s]"],
                                          "outputs": {"y0": {"shape": "[3, n]"}}}, "error"),
    "two inputs": ({"inputs": ["[b]", "[b]"]}, "error"),
}


test_case = case_test("NonZero", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=3), st.sampled_from(["f32", "i64", "bool"]))
def test_matches_reference(shape, dtype):
    # only the number of rows is known: the rank of the input (and the count, 0, of an
    # empty input)
    x = random_array(shape, dtype)
    (out,) = reference_outputs("NonZero", [x], opset=OPSET)
    sol = infer("NonZero", [(dtype, list(shape))], opset=OPSET)
    assert sol.status == "ok" and sol.dtype("y0") == "i64"
    dims = sol.dims("y0")
    assert len(dims) == 2 and dims[0] == out.shape[0]
    assert dims[1] == 0 if x.size == 0 else not dims[1].is_int
