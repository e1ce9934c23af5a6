"""STFT: rules/STFT.lp on data cases, and against onnx's reference on random signals, steps,
windows and frame lengths."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case


def i64(v):
    return np.array(v, np.int64)


CASES = {
    "onesided: frames and bins": ({"inputs": ["[b, t, 1]", i64(160), "[400]"]},
                                  {"y0": "[b, (t + 80)//160 - 2, 201, 2]"}),
    "two-sided": ({"inputs": ["[b, t, 1]", i64(4), None, i64(8)], "attrs": {"onesided": 0}},
                  {"y0": "[b, t//4 - 1, 8, 2]"}),
    "no window, no length: one frame of the signal": ({"inputs": ["[b, 16, 2]", i64(1)]},
                                                      {"y0": "[b, 1, 9, 2]"}),
    "the window from frame_length": ({"inputs": ["[b, t, 1]", i64(2), "[W]", i64(8)]},
                                     {"x2": "[8]"}),
    "a step of unknown value": ({"inputs": ["[b, 100, 1]", ("i64", "[]"), "[10]"]},
                                {"y0": "[b, _1, 6, 2]"}),
    "backward: the signal's batch": ({"inputs": ["[b, t, c]", i64(2), "[4]"],
                                      "outputs": {"y0": {"shape": "[3, 5, 3, 2]"}}},
                                     {"x0": "[3, t, c]"}),
    "a window of another length": ({"inputs": ["[b, t, 1]", i64(2), "[6]", i64(8)]}, "error"),
    "a frame longer than the signal": ({"inputs": ["[b, 4, 1]", i64(1), "[8]"]}, "error"),
    "a zero step": ({"inputs": ["[b, 16, 1]", i64(0), "[4]"]}, "error"),
    "a last axis of 3": ({"inputs": ["[b, 16, 3]", i64(1), "[4]"]}, "error"),
    "a 2-D signal": ({"inputs": ["[b, 16]", i64(1), "[4]"]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("STFT", {"opset": 17, **CASES[name][0]}, CASES[name][1])


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(1, 20), st.integers(1, 2), st.integers(1, 5),
       st.one_of(st.none(), st.integers(1, 20)), st.booleans(), st.integers(0, 1))
def test_matches_reference(batch, length, last, step, n, windowed, onesided):
    rng = np.random.default_rng(length)
    x = rng.standard_normal((batch, length, last)).astype(np.float32)
    frame = n or length
    window = rng.random(frame).astype(np.float32) if windowed else None
    arrays = [x, i64(step), window, None if n is None else i64(n)]
    check_against_reference("STFT", arrays, {"onesided": onesided}, opset=17, const=(1, 3))
