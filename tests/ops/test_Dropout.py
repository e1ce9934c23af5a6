"""Dropout: rules/Dropout.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "output only": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "with mask": ({"inputs": ["[b, s]"], "n_outputs": 2},
                  {"y0": "[b, s]", "y1": "[b, s]", "dtypes": {"y0": "f32", "y1": "bool"}}),
    "ratio and training_mode": ({"inputs": [("f16", "[b, s]"), "[]", ("bool", "[]")],
                                 "n_outputs": 2},
                                {"y1": "[b, s]", "dtypes": {"y0": "f16", "y1": "bool"}}),
    "training_mode is bool": ({"inputs": ["[b, s]", "[]", ("f32", "[]")]}, "error"),
    "the mask is bool": ({"inputs": ["[3]"], "n_outputs": 2, "outputs": {"y1": {"dtype": "f32"}}},
                         "error"),
    "opset 10: ratio attribute, bool mask": ({"inputs": ["[b, s]"], "n_outputs": 2, "opset": 10,
                                              "attrs": {"ratio": 0.2}},
                                             {"y1": "[b, s]", "dtypes": {"y1": "bool"}}),
    "opset 7: the mask has data's type": ({"inputs": [("f64", "[b, s]")], "n_outputs": 2,
                                           "opset": 7},
                                          {"y1": "[b, s]", "dtypes": {"y1": "f64"}}),
    "inputs before opset 12": ({"inputs": ["[b, s]", "[]"], "opset": 10}, "error"),
    "backward from the mask": ({"inputs": ["S"], "n_outputs": 2,
                                "outputs": {"y1": {"shape": "[4, n]"}}},
                               {"x0": "[4, n]", "y0": "[4, n]"}),
    "output dtype clashes": ({"inputs": ["[3]"], "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    "the mask clashes with data": ({"inputs": ["[2, 3]"], "n_outputs": 2,
                                    "outputs": {"y1": {"shape": "[3, 2]"}}}, "error"),
    "three outputs": ({"inputs": ["[3]"], "n_outputs": 3}, "error"),
}


test_case = case_test("Dropout", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(["f16", "f32", "f64"]),
       st.sampled_from([(), ("ratio",), ("ratio", "training_mode")]), st.integers(1, 2))
def test_matches_reference(shape, dtype, optional, n_outputs):
    arrays = [random_array(shape, dtype)]
    if "ratio" in optional:
        arrays.append(random_array([], "f32") ** 2 % 0.9)
    if "training_mode" in optional:
        arrays.append(random_array([], "bool"))
    check_against_reference("Dropout", arrays, {"seed": 0}, n_outputs=n_outputs)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.floats(0, 0.9), st.integers(1, 2))
def test_matches_reference_opset10(shape, ratio, n_outputs):
    check_against_reference("Dropout", [random_array(shape)], {"ratio": ratio},
                            n_outputs=n_outputs, opset=10)
