"""CastLike: rules/CastLike.lp on data cases, and against onnx's reference on random shapes."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.graph import dtype_of_array
from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "the second input's type": ({"inputs": ["[b, s, 768]", ("i64", "[]")]},
                                {"y0": "[b, s, 768]", "dtypes": {"y0": "i64"}}),
    "only the first input's shape": ({"inputs": [("i32", "[b, s]"), ("f16", "[7, 7]")]},
                                     {"y0": "[b, s]", "x1": "[7, 7]", "dtypes": {"y0": "f16"}}),
    "backward from the output": ({"inputs": ["S", ("bool", "[]")],
                                  "outputs": {"y0": {"shape": "[4, n]"}}}, {"x0": "[4, n]"}),
    "output dtype clashes": ({"inputs": ["[3]", ("i64", "[]")],
                              "outputs": {"y0": {"dtype": "i32"}}}, "error"),
    "output annotation clashes": ({"inputs": ["[2, 3]", "[]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "one input": ({"inputs": ["[3]"]}, "error"),
}


test_case = case_test("CastLike", CASES)


def i64(*v):
    return np.array(v, dtype=np.int64)


def reshape_target(x, like):
    """The shape Reshape(d, CastLike(x, like)) gives a tensor d of unknown shape: it is what
    the rules know of the cast elements. A string x "[b, s]" is the Shape of a tensor."""
    g = {"name": "values", "opset": 18, "inputs": {"d": {"dtype": "f32", "shape": "D"}},
         "initializers": {"like": {"dtype": like, "shape": [0], "data": []}}, "nodes": []}
    if isinstance(x, str):
        g["inputs"]["t"] = {"dtype": "f32", "shape": x}
        g["nodes"].append({"name": "shape", "op": "Shape", "inputs": ["t"], "outputs": ["x0"]})
    else:
        g["initializers"]["x0"] = {"dtype": dtype_of_array(x), "shape": list(x.shape),
                                   "data": x.tolist()}
    g["nodes"].append({"name": "n", "op": "CastLike", "inputs": ["x0", "like"], "outputs": ["v"]})
    g["nodes"].append({"name": "r", "op": "Reshape", "inputs": ["d", "v"], "outputs": ["r"]})
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    return sol.shape("r")


VALUE_CASES = {
    "int64 like int32, small values": (i64(2, 3), "i32", "[2, 3]"),
    "int64 like int64, symbolic": ("[b, s]", "i64", "[b, s]"),
    "int64 like uint8 out of range: unknown": (i64(300), "u8", None),
    "symbolic values like int16 may wrap: unknown": ("[b, s]", "i16", None),
    "float like int64 truncates": (np.array([2.7, 3.0]), "i64", "[2, 3]"),
}


@pytest.mark.parametrize("case", VALUE_CASES.values(), ids=VALUE_CASES.keys())
def test_values(case):
    x, like, expected = case
    got = reshape_target(x, like)
    if expected is None:  # nothing may be known: only fresh names
        assert re.fullmatch(r"\[_\d+(, _\d+)*\]", got), got
    else:
        assert got == expected


DTYPES = ["f16", "f32", "f64", "i8", "i32", "i64", "u8", "u16", "bool"]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.lists(st.integers(0, 3), max_size=2),
       st.sampled_from(DTYPES), st.sampled_from(DTYPES))
def test_matches_reference(shape, like_shape, source, target):
    arrays = [random_array(shape, source), random_array(like_shape, target)]
    check_against_reference("CastLike", arrays)
