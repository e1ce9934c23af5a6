"""Shape: rules/Shape.lp on data cases, and against onnx's reference on random shapes."""
import pytest
from hypothesis import assume, given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "the rank": ({"inputs": ["[b, s, 768]"]}, {"y0": "[3]", "dtypes": {"y0": "i64"}}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[0]"}),
    "start": ({"inputs": ["[b, s, 768]"], "attrs": {"start": 1}}, {"y0": "[2]"}),
    "end": ({"inputs": ["[b, s, 768]"], "attrs": {"end": 1}}, {"y0": "[1]"}),
    "negative start and end": ({"inputs": ["[b, s, 768]"], "attrs": {"start": -2, "end": -1}},
                               {"y0": "[1]"}),
    "clipped start": ({"inputs": ["[b, s, 768]"], "attrs": {"start": -10}}, {"y0": "[3]"}),
    "clipped end": ({"inputs": ["[b, s, 768]"], "attrs": {"end": 10}}, {"y0": "[3]"}),
    "end before the first axis: clipped": ({"inputs": ["[b, s]"], "attrs": {"end": -3}},
                                           {"y0": "[0]"}),
    "start after end": ({"inputs": ["[b, s, 768]"], "attrs": {"start": 2, "end": 1}},
                        {"y0": "[0]"}),
    "start past the rank": ({"inputs": ["[b, s]"], "attrs": {"start": 5}}, {"y0": "[0]"}),
    "unknown rank": ({"inputs": ["X"]}, {"y0": "[_1]"}),
    "output clashes with the rank": ({"inputs": ["[b, s]"],
                                      "outputs": {"y0": {"shape": "[3]"}}}, "error"),
    "output dtype": ({"inputs": ["[b]"], "outputs": {"y0": {"dtype": "i32"}}}, "error"),
    "two inputs": ({"inputs": ["[b]", "[b]"]}, "error"),
}


test_case = case_test("Shape", CASES, OPSET)


@pytest.mark.parametrize("attrs, want", [
    (None, "[b, s, 768]"),
    ({"start": 1}, "[s, 768]"),
    ({"start": -1}, "[768]"),
    ({"end": -1}, "[b, s]"),
])
def test_values_are_the_dims(attrs, want):
    """Shape -> Reshape: the elements are the dims."""
    node = {"op": "Shape", "inputs": ["x"], "outputs": ["sh"]}
    if attrs:
        node["attrs"] = attrs
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, 768]"}, "d": {"shape": "D"}},
         "nodes": [node, {"op": "Reshape", "inputs": ["d", "sh"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("r") == want


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.one_of(st.none(), st.integers(-5, 5)),
       st.one_of(st.none(), st.integers(-5, 5)))
def test_matches_reference(shape, start, end):
    # an end before -r: the reference adds r once and lets Python count from the end
    # again; ONNX clips it to 0 (a case above)
    assume(end is None or end >= -len(shape))
    attrs = {k: v for k, v in (("start", start), ("end", end)) if v is not None}
    check_against_reference("Shape", [random_array(shape)], attrs or None, opset=OPSET)
