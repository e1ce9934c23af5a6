"""ReverseSequence: rules/ReverseSequence.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "time-major (defaults)": ({"inputs": ["[t, b, d]", ("i64", "L")]},
                              {"y0": "[t, b, d]", "x1": "[b]"}),
    "batch-major": ({"inputs": [("i32", "[b, t]"), ("i64", "L")],
                     "attrs": {"batch_axis": 0, "time_axis": 1}},
                    {"y0": "[b, t]", "x1": "[b]", "dtypes": {"y0": "i32"}}),
    "backward: the batch from the lengths": ({"inputs": ["[t, b]", ("i64", "[4]")]},
                                             {"x0": "[t, 4]", "bindings": {"b": 4}}),
    "lengths of another batch": ({"inputs": ["[5, 3]", ("i64", "[4]")]}, "error"),
    "int32 lengths": ({"inputs": ["[5, 3]", ("i32", "[3]")]}, "error"),
    "a vector": ({"inputs": ["[5]", ("i64", "[5]")]}, "error"),
    "axes equal": ({"inputs": ["[5, 3]", ("i64", "[3]")],
                    "attrs": {"batch_axis": 0, "time_axis": 0}}, "error"),
    "axis 2": ({"inputs": ["[5, 3, 2]", ("i64", "[2]")], "attrs": {"batch_axis": 2}},
               "error"),
}


test_case = case_test("ReverseSequence", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.booleans(), st.data())
def test_matches_reference(shape, batch_first, data):
    ba, ta = (0, 1) if batch_first else (1, 0)
    lens = np.array([data.draw(st.integers(0, shape[ta])) for _ in range(shape[ba])], np.int64)
    check_against_reference("ReverseSequence", [random_array(shape), lens],
                            {"batch_axis": ba, "time_axis": ta}, opset=OPSET, const=[1])
