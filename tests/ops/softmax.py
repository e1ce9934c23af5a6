"""The tests Softmax, LogSoftmax and Hardmax share, made per operator by its own test module:
one axis normalized (coerced to 2-D before opset 13), the shape kept; data cases for the
rule file, and the rule against onnx's reference on random shapes, axes and opsets."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, infer, random_array

CASES = {
    "default axis": ({"inputs": ["[b, s, d]"]}, {"y0": "[b, s, d]"}),
    "axis 0": ({"inputs": ["[b, s, d]"], "attrs": {"axis": 0}}, {"y0": "[b, s, d]"}),
    "negative axis": ({"inputs": ["[2, 3]"], "attrs": {"axis": -2}}, {"y0": "[2, 3]"}),
    "vector, opset 13": ({"inputs": ["[n]"], "opset": 13}, {"y0": "[n]"}),
    "opset 11 keeps the shape": ({"inputs": ["[2, 3, 4, 5]"], "opset": 11, "attrs": {"axis": 2}},
                                 {"y0": "[2, 3, 4, 5]"}),
    "opset 11 default axis 1": ({"inputs": ["[b, 3, 4]"], "opset": 11}, {"y0": "[b, 3, 4]"}),
    "dtype f16": ({"inputs": [("f16", "[2, 3]")]}, {"y0": "[2, 3]", "dtypes": {"y0": "f16"}}),
    "backward": ({"inputs": ["[b, s]"], "outputs": {"y0": {"shape": "[4, 7]"}}},
                 {"x0": "[4, 7]", "bindings": {"b": 4, "s": 7}}),
    # errors
    "integer input": ({"inputs": [("i64", "[2, 3]")]}, "error"),
    "scalar": ({"inputs": ["[]"]}, "error"),
    "axis too large": ({"inputs": ["[2, 3]"], "attrs": {"axis": 2}}, "error"),
    "axis too small": ({"inputs": ["[2, 3]"], "attrs": {"axis": -3}}, "error"),
    "axis out of range, backwards": ({"inputs": ["x"], "attrs": {"axis": 3},
                                      "outputs": {"y0": {"shape": "[2, 3]"}}}, "error"),
    "opset 11 vector: default axis 1 is out of range": ({"inputs": ["[3]"], "opset": 11}, "error"),
    "opset 11 scalar": ({"inputs": ["[]"], "opset": 11}, "error"),
    "shape clash": ({"inputs": ["[2, 3]"], "outputs": {"y0": {"shape": "[2, 4]"}}}, "error"),
    "two inputs": ({"inputs": ["[2, 3]", "[2, 3]"]}, "error"),
}

def softmax_tests(op: str):
    """test_case and test_matches_reference of a softmax-like operator."""
    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(1, 3), max_size=4), st.one_of(st.none(), st.integers(-5, 4)),
           st.sampled_from([11, 13, 18]))
    def test_matches_reference(shape, axis, opset):
        attrs = {} if axis is None else {"axis": axis}
        a = (-1 if opset >= 13 else 1) if axis is None else axis
        if not -len(shape) <= a < len(shape):
            # onnxruntime and onnx's checker reject it; the reference runs some of these
            assert infer(op, [str(shape)], attrs, opset=opset).status == "error"
            return
        check_against_reference(op, [random_array(shape)], attrs, opset=opset)

    @pytest.mark.parametrize("name", CASES)
    def test_case(name):
        check_case(op, *CASES[name])
    return test_case, test_matches_reference
