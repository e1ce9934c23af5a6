"""Scatter: rules/Scatter.lp (ScatterElements.lp's shape rules) on data cases, and against
onnxruntime at opset 10 (onnx's reference has no Scatter)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case, infer, random_array

CASES = {
    "the data's shape": ({"inputs": ["[b, s]", ("i64", "[b, k]"), "[b, k]"],
                          "attrs": {"axis": 1}}, {"y0": "[b, s]"}),
    "updates take the indices' shape": ({"inputs": ["[3, 4]", ("i64", "[k, 2]"), "U"]},
                                        {"x2": "[k, 2]"}),
    "updates differ from the indices": ({"inputs": ["[3, 4]", ("i64", "[2, 4]"), "[2, 3]"]},
                                        "error"),
    "an index out of range": ({"inputs": ["[3, 4]", np.array([[5]], np.int64), "[1, 1]"]},
                              "error"),
    "no reduction": ({"inputs": ["[3]", ("i64", "[1]"), "[1]"], "attrs": {"reduction": "add"}},
                     "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    if name == "no reduction":  # (an attribute Scatter never had: unreadable input)
        with pytest.raises(Exception, match="reduction"):
            check_case("Scatter", {"opset": 10, **spec}, expected)
        return
    check_case("Scatter", {"opset": 10, **spec}, expected)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    ishape = [data.draw(st.integers(1, n)) for n in shape]
    rng = np.random.default_rng(r)
    indices = rng.integers(0, shape[axis], ishape).astype(np.int64)
    arrays = [random_array(shape), indices, random_array(ishape)]
    from tests.kernels.reference import ort_outputs

    (want,) = ort_outputs("Scatter", arrays, {"axis": axis}, 1, 10, ())
    sol = infer("Scatter", [list(shape), ("i64", ishape), ishape], {"axis": axis}, opset=10)
    assert sol.shape("y0") == "[" + ", ".join(map(str, want.shape)) + "]"
