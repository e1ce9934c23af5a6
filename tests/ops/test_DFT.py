"""DFT: rules/DFT.lp on data cases, and against onnx's reference on random shapes, lengths,
axes and flags (opset 17: axis an attribute; opset 20: an input)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test


def i64(v):
    return np.array(v, np.int64)


CASES = {
    "opset 20: default axis -2": ({"inputs": ["[b, n, 1]"], "opset": 20}, {"y0": "[b, n, 2]"}),
    "opset 17: default axis 1": ({"inputs": ["[b, n, t, 2]"], "opset": 17},
                                 {"y0": "[b, n, t, 2]"}),
    "dft_length pads or cuts": ({"inputs": ["[b, n, 1]", i64(16)], "opset": 20},
                                {"y0": "[b, 16, 2]"}),
    "a graph input's dft_length: a name of its own": (
        {"inputs": ["[b, n, 1]", ("i64", "[]")], "opset": 20}, {"y0": "[b, _c1, 2]"}),
    "RFFT: half the points and one": ({"inputs": ["[b, n, 1]"], "opset": 20,
                                       "attrs": {"onesided": 1}}, {"y0": "[b, n//2 + 1, 2]"}),
    "IRFFT: a real signal of 2*(n - 1) points": ({"inputs": ["[b, n, 2]"], "opset": 20,
                                                  "attrs": {"onesided": 1, "inverse": 1}},
                                                 {"y0": "[b, 2*n - 2, 1]"}),
    "the axis as an input": ({"inputs": ["[b, n, t, 2]", None, i64(1)], "opset": 20,
                              "attrs": {"onesided": 1}}, {"y0": "[b, n//2 + 1, t, 2]"}),
    "backward: the signal from the output": ({"inputs": ["[b, n, 1]"], "opset": 20,
                                              "outputs": {"y0": {"shape": "[3, 8, 2]"}}},
                                             {"x0": "[3, 8, 1]"}),
    "the complex axis as the axis": ({"inputs": ["[b, n, 2]", None, i64(-1)], "opset": 20},
                                     "error"),
    "a last axis of 3": ({"inputs": ["[b, n, 3]"], "opset": 20}, "error"),
    "a zero length": ({"inputs": ["[b, n, 1]", i64(0)], "opset": 20}, "error"),
    "an IRFFT of one point": ({"inputs": ["[b, 1, 2]"], "opset": 20,
                               "attrs": {"onesided": 1, "inverse": 1}}, "error"),
    "integer signal": ({"inputs": [("i64", "[b, n, 1]")], "opset": 20}, "error"),
    "a vector": ({"inputs": ["[2]"], "opset": 20}, "error"),
}


test_case = case_test("DFT", CASES)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.integers(1, 2),
       st.sampled_from([17, 20]), st.integers(0, 1), st.integers(0, 1),
       st.one_of(st.none(), st.integers(1, 9)), st.data())
def test_matches_reference(shape, last, opset, inverse, onesided, n, data):
    x = np.random.default_rng(len(shape)).standard_normal(shape + [last]).astype(np.float32)
    r = len(shape) + 1
    axis = data.draw(st.integers(-r, r - 2))
    attrs = {"inverse": inverse, "onesided": onesided}
    arrays = [x, None if n is None else i64(n)]
    if opset == 20:
        arrays.append(i64(axis))
    else:
        attrs["axis"] = axis
    check_against_reference("DFT", arrays, attrs, opset=opset, const=(1, 2))
