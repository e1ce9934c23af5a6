"""ScatterElements: rules/ScatterElements.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, dtype=np.int64)


CASES = {
    "the data's shape": ({"inputs": ["[b, s]", ("i64", "[b, k]"), "[b, k]"],
                          "attrs": {"axis": 1}}, {"y0": "[b, s]"}),
    "default axis 0": ({"inputs": ["[3, 4]", ("i64", "[2, 4]"), "[2, 4]"]}, {"y0": "[3, 4]"}),
    "negative axis, reduction": ({"inputs": ["[s, t]", ("i32", "[n, m]"), "[n, m]"],
                                  "attrs": {"axis": -1, "reduction": "add"}},
                                 {"y0": "[s, t]"}),
    "dtype of the data": ({"inputs": [("i32", "[3]"), ("i64", "[2]"), ("i32", "[2]")]},
                          {"y0": "[3]", "dtypes": {"y0": "i32"}}),
    "updates take the indices' shape": ({"inputs": ["[3, 4]", ("i64", "[k, 2]"), "U"]},
                                        {"x2": "[k, 2]"}),
    "backward: the data from the output": ({"inputs": ["X", ("i64", "[1, 2]"), "[1, 2]"],
                                            "outputs": {"y0": {"shape": "[5, 7]"}}},
                                           {"x0": "[5, 7]"}),
    "updates differ from the indices": ({"inputs": ["[3, 4]", ("i64", "[2, 4]"), "[2, 3]"]},
                                        "error"),
    "ranks differ": ({"inputs": ["[3, 4]", ("i64", "[2]"), "[2]"]}, "error"),
    "an index axis longer than the data's": ({"inputs": ["[3, 4]", ("i64", "[2, 5]"),
                                                         "[2, 5]"]}, "error"),
    "axis out of range": ({"inputs": ["[3, 4]", ("i64", "[2, 4]"), "[2, 4]"],
                           "attrs": {"axis": 2}}, "error"),
    "index out of range": ({"inputs": ["[3, 4]", i64([[4]]), "[1, 1]"], "attrs": {"axis": 1}},
                           "error"),
    "updates of another type": ({"inputs": ["[3]", ("i64", "[2]"), ("f64", "[2]")]}, "error"),
    "float indices": ({"inputs": ["[3, 4]", ("f32", "[2, 4]"), "[2, 4]"]}, "error"),
    "max before opset 18": ({"inputs": ["[3]", ("i64", "[2]"), "[2]"], "opset": 16,
                             "attrs": {"reduction": "max"}}, "error"),
    "mul in opset 16": ({"inputs": ["[3]", ("i64", "[2]"), "[2]"], "opset": 16,
                         "attrs": {"reduction": "mul"}}, {"y0": "[3]"}),
    "an unknown reduction": ({"inputs": ["[3]", ("i64", "[2]"), "[2]"],
                              "attrs": {"reduction": "sum"}}, "error"),
    "scalar data": ({"inputs": ["[]", ("i64", "[]"), "[]"]}, "error"),
}


test_case = case_test("ScatterElements", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data(),
       st.sampled_from(["none", "add", "mul", "max", "min"]))
def test_matches_reference(shape, data, reduction):
    # indices in range, their axes at most the data's (the reference indexes the data with
    # them); axes in range (the reference takes axis -r-1 as Python's indexing does: the
    # cases above check that the rules reject it)
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    d = shape[axis]
    ishape = [data.draw(st.integers(1, n)) for n in shape]
    n = int(np.prod(ishape))
    idx = i64(data.draw(st.lists(st.integers(-d, d - 1), min_size=n, max_size=n)))
    check_against_reference("ScatterElements",
                            [random_array(shape), idx.reshape(ishape), random_array(ishape)],
                            {"axis": axis, "reduction": reduction}, opset=OPSET, const=[1])
