"""StringSplit: rules/StringSplit.lp on data cases, and against onnx's reference (the pieces'
axis depends on the strings: a fresh name, within maxsplit + 1 when it is given)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case, infer, reference_outputs

from .strings import assert_dims_fit, shapes, string_array

CASES = {
    "pieces and counts": ({"inputs": [("str", "[b, s]")], "n_outputs": 2},
                          {"y0": "[b, s, _1]", "y1": "[b, s]",
                           "dtypes": {"y0": "str", "y1": "i64"}}),
    "backward: the strings from the counts": ({"inputs": [("str", "X")], "n_outputs": 2,
                                               "outputs": {"y1": {"shape": "[3]"}}},
                                              {"x0": "[3]", "y0": "[3, _1]"}),
    "no strings, no pieces": ({"inputs": [("str", "[0, s]")], "n_outputs": 2},
                              {"y0": "[0, s, 0]", "y1": "[0, s]"}),
    "numbers": ({"inputs": ["[2]"]}, "error"),
    "three outputs": ({"inputs": [("str", "[2]")], "n_outputs": 3}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("StringSplit", {"opset": 20, **CASES[name][0]}, CASES[name][1])


def test_maxsplit_bounds_the_pieces():
    sol = infer("StringSplit", [("str", "[n]")], {"delimiter": "-", "maxsplit": 2}, 2, opset=20)
    assert sol.shape("y0") == "[n, _c1]" and sol.to_json()["ranges"] == {"_c1": [0, 3]}


@settings(max_examples=20, deadline=None)
@given(shapes, st.sampled_from([None, "", "-", " "]), st.sampled_from([None, 0, 1, 2]))
def test_matches_reference(shape, delimiter, maxsplit):
    """The pieces' axis is the strings' to decide: a fresh name or the reference's length."""
    x = string_array(np.random.default_rng(len(shape)), shape)
    attrs = {k: v for k, v in (("delimiter", delimiter), ("maxsplit", maxsplit)) if v is not None}
    if not shape:
        return  # (onnx's reference fails on a scalar, which onnxruntime splits)
    want = reference_outputs("StringSplit", [x], attrs, 2, 20)
    sol = infer("StringSplit", [("str", list(shape))], attrs, 2, opset=20)
    assert sol.status == "ok"
    for k, w in enumerate(want):
        assert_dims_fit(sol, f"y{k}", w.shape)
