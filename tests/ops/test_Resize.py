"""Resize: rules/Resize.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array


def f32(*v):
    return np.array(v, dtype=np.float32)


def i64(*v):
    return np.array(v, dtype=np.int64)


EMPTY = np.zeros(0, np.float32)
CASES = {
    "scales: doubling": ({"inputs": ["[b, 3, h, w]", None, f32(1, 1, 2, 2)]},
                         {"y0": "[b, 3, 2*h, 2*w]"}),
    "scales: floor of a fraction": ({"inputs": ["[b, 3, h, w]", None, f32(1, 1, 0.5, 1.5)]},
                                    {"y0": "[b, 3, h//2, 3*w//2]"}),
    "sizes (scales empty)": ({"inputs": ["[b, 3, h, w]", None, EMPTY, i64(2, 3, 8, 8)]},
                             {"y0": "[2, 3, 8, 8]", "x0": "[b, 3, h, w]"}),
    "opset 10: X and scales": ({"inputs": ["[b, 3, h, w]", f32(1, 1, 2, 2)], "opset": 10},
                               {"y0": "[b, 3, 2*h, 2*w]"}),
    "runtime sizes: only the rank": ({"inputs": ["[b, 3, h, w]", None, None, ("i64", "[4]")]},
                                     {"y0": "[_1, _2, _3, _4]"}),
    "a size for each axis": ({"inputs": ["[b, 3, h, w]", None, None, i64(8, 8)]}, "error"),
    "a scale for each axis": ({"inputs": ["[b, 3, h, w]", None, f32(2, 2)]}, "error"),
    "keep_aspect_ratio_policy: only the rank": (
        {"inputs": ["[1, 3, 4, 6]", None, None, i64(1, 3, 8, 8)],
         "attrs": {"keep_aspect_ratio_policy": "not_larger"}},
        {"y0": "[_1, _2, _3, _4]"}),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("Resize", *CASES[name])


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=3, max_size=4), st.data(),
       st.sampled_from(["nearest", "linear"]))
def test_matches_reference(shape, data, mode):
    scales = [data.draw(st.sampled_from([1.0, 0.5, 1.5, 2.0, 3.0])) for _ in shape]
    x = random_array(shape)
    if data.draw(st.booleans()):
        check_against_reference("Resize", [x, None, f32(*scales)], {"mode": mode}, const=[2])
    else:
        sizes = [data.draw(st.integers(1, 6)) for _ in shape]
        check_against_reference("Resize", [x, None, None, i64(*sizes)], {"mode": mode},
                                const=[3])
