"""MelWeightMatrix: rules/MelWeightMatrix.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case


def inputs(m, n, rate=16000, lo=20.0, hi=8000.0):
    return [np.array(m, np.int64), np.array(n, np.int64), np.array(rate, np.int64),
            np.array(lo, np.float32), np.array(hi, np.float32)]


CASES = {
    "whisper's 80 bands of a 400-point DFT": ({"inputs": inputs(80, 400)},
                                              {"y0": "[201, 80]", "dtypes": {"y0": "f32"}}),
    "output_datatype": ({"inputs": inputs(8, 64), "attrs": {"output_datatype": 11}},
                        {"y0": "[33, 8]", "dtypes": {"y0": "f64"}}),
    "counts of unknown value": ({"inputs": [("i64", "[]"), ("i64", "[]"), ("i64", "[]"),
                                            "[]", "[]"]}, {"y0": "[_1, _2]"}),
    "no bands": ({"inputs": inputs(0, 64)}, "error"),
    "counts of two types": ({"inputs": [("i32", "[]"), ("i64", "[]"), ("i64", "[]"),
                                        "[]", "[]"]}, "error"),
    "integer edges": ({"inputs": [("i64", "[]"), ("i64", "[]"), ("i64", "[]"),
                                  ("i64", "[]"), ("i64", "[]")]}, "error"),
    "a vector count": ({"inputs": [("i64", "[1]"), ("i64", "[]"), ("i64", "[]"), "[]", "[]"]},
                       "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("MelWeightMatrix", {"opset": 17, **CASES[name][0]}, CASES[name][1])


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 40), st.integers(8, 1024), st.sampled_from([8000, 16000, 22050]),
       st.floats(0.0, 300.0), st.floats(0.1, 0.45))
def test_matches_reference(m, n, rate, lo, top):
    # (upper edges below the Nyquist frequency: above it the bands can reach past the bins,
    # where the reference and our kernel fail and the shape rules cannot tell)
    check_against_reference("MelWeightMatrix", inputs(m, n, rate, lo, max(lo + 1, top * rate)),
                            opset=17, const=(0, 1, 2, 3, 4))
