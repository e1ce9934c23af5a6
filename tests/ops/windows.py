"""The tests HannWindow, HammingWindow and BlackmanWindow share (one set of shape rules:
HannWindow.lp's spectral_window): data cases, and the rules against onnx's reference on
random sizes, types and periodicity."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case


def size(n, dtype=np.int64):
    return np.array(n, dtype)


CASES = {
    "a constant size": ({"inputs": [size(10)]}, {"y0": "[10]", "dtypes": {"y0": "f32"}}),
    "output_datatype": ({"inputs": [size(4, np.int32)], "attrs": {"output_datatype": 11}},
                        {"y0": "[4]", "dtypes": {"y0": "f64"}}),
    "symmetric": ({"inputs": [size(3)], "attrs": {"periodic": 0}}, {"y0": "[3]"}),
    "no points": ({"inputs": [size(0)]}, {"y0": "[0]"}),
    "a graph input's size: a name of its own": ({"inputs": [("i64", "[]")]}, {"y0": "[_c1]"}),
    "the size is a scalar": ({"inputs": [("i64", "S")]}, {"x0": "[]"}),
    "a vector size": ({"inputs": [("i64", "[1]")]}, "error"),
    "a float size": ({"inputs": [("f32", "[]")]}, "error"),
    "a negative size": ({"inputs": [size(-2)]}, "error"),
    "an unknown output_datatype": ({"inputs": [size(2)], "attrs": {"output_datatype": 99}},
                                   "error"),
}


def window_tests(op: str):
    """test_case and test_matches_reference of a spectral window."""
    @pytest.mark.parametrize("name", CASES)
    def test_case(name):
        check_case(op, {"opset": 17, **CASES[name][0]}, CASES[name][1])

    @settings(max_examples=20, deadline=None)
    @given(st.integers(0, 12), st.sampled_from([1, 10, 11, 6, 7]), st.integers(0, 1),
           st.sampled_from([np.int32, np.int64]))
    def test_matches_reference(n, output_datatype, periodic, size_dtype):
        attrs = {"output_datatype": output_datatype, "periodic": periodic}
        check_against_reference(op, [size(n, size_dtype)], attrs, opset=17, const=(0,))

    return test_case, test_matches_reference


def check_size_from_a_shape():
    """A window over a symbolic length (Shape -> Gather): [n] points."""
    from shape_logic import solve

    g = {"opset": 17, "inputs": {"x": {"shape": "[b, n]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [], "data": 1}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
                   {"op": "Gather", "inputs": ["s", "one"], "outputs": ["n"]},
                   {"op": "HannWindow", "inputs": ["n"], "outputs": ["w"]}]}
    assert solve(g).shape("w") == "[n]"
