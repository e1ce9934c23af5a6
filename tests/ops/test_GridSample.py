"""GridSample: rules/GridSample.lp on data cases, and against onnx's reference; onnxruntime's
com.microsoft GridSample on data cases and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OPSET = 20
CASES = {
    "2-d": ({"inputs": ["[n, c, h, w]", "[n, oh, ow, 2]"]}, {"y0": "[n, c, oh, ow]"}),
    "3-d, the grid from X": ({"inputs": ["[n, c, d, h, w]", "G"]},
                             {"x1": "[n, _1, _2, _3, 3]", "y0": "[n, c, _1, _2, _3]"}),
    "X's type, float grid": ({"inputs": [("i32", "[1, 2, 3, 4]"), ("f16", "[1, 5, 6, 2]")]},
                             {"y0": "[1, 2, 5, 6]", "dtypes": {"y0": "i32"}}),
    "backward: the grid from the output": ({"inputs": ["[2, 3, 8, 8]", "G"],
                                            "outputs": {"y0": {"shape": "[2, 3, 4, 5]"}}},
                                           {"x1": "[2, 4, 5, 2]"}),
    "opset 16: 2-d only": ({"inputs": ["[1, 2, 3, 4, 5]", "[1, 2, 3, 4, 3]"], "opset": 16},
                           "error"),
    "coordinates of another count": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 3]"]}, "error"),
    "batches differ": ({"inputs": ["[1, 2, 3, 4]", "[2, 5, 6, 2]"]}, "error"),
    "an integer grid": ({"inputs": ["[1, 2, 3, 4]", ("i64", "[1, 5, 6, 2]")]}, "error"),
    "an unknown mode": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 2]"], "attrs": {"mode": "area"}},
                        "error"),
    "no spatial axis": ({"inputs": ["[1, 2]", "[1, 0]"]}, "error"),
}


test_case = case_test("GridSample", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(2, 4), min_size=1, max_size=3), st.data(),
       st.sampled_from(["nearest", "linear", "cubic"]),
       st.sampled_from(["zeros", "border", "reflection"]), st.booleans())
def test_matches_reference(spatial, data, mode, padding, align):
    # spatial sizes from 2: the reference divides by zero reflecting on a size-1 axis with
    # align_corners (the kernel keeps such a position at the pixel)
    n, c = data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3))
    out = [data.draw(st.integers(1, 3)) for _ in spatial]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    grid = rng.uniform(-1.2, 1.2, [n] + out + [len(spatial)])
    check_against_reference("GridSample", [random_array([n, c] + spatial),
                                           grid.astype(np.float32)],
                            {"mode": mode, "padding_mode": padding, "align_corners": int(align)},
                            opset=OPSET)


# onnxruntime's com.microsoft GridSample: opset 16's at any opset (4-D; bilinear, nearest,
# bicubic), X and the grid of one float type
MS_CASES = {
    "2-d at opset 13": ({"inputs": ["[n, c, h, w]", "[n, oh, ow, 2]"], "opset": 13},
                        {"y0": "[n, c, oh, ow]"}),
    "the grid from X and the output": ({"inputs": ["[2, 3, 8, 8]", "G"],
                                        "outputs": {"y0": {"shape": "[2, 3, 4, 5]"}}},
                                       {"x1": "[2, 4, 5, 2]"}),
    "the grid's type is X's": ({"inputs": [("f16", "[1, 2, 3, 4]"), (None, "G")]},
                               {"y0": "[1, 2, _1, _2]", "dtypes": {"x1": "f16", "y0": "f16"}}),
    "bicubic": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 2]"], "attrs": {"mode": "bicubic"}},
                {"y0": "[1, 2, 5, 6]"}),
    "3-d at opset 20": ({"inputs": ["[1, 2, 3, 4, 5]", "[1, 2, 3, 4, 3]"], "opset": 20},
                        "error"),
    "mode linear": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 2]"], "attrs": {"mode": "linear"}},
                    "error"),
    "mode cubic": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 2]"], "attrs": {"mode": "cubic"}},
                   "error"),
    "integer X": ({"inputs": [("i32", "[1, 2, 3, 4]"), ("f32", "[1, 5, 6, 2]")]}, "error"),
    "types differ": ({"inputs": [("f64", "[1, 2, 3, 4]"), ("f32", "[1, 5, 6, 2]")]}, "error"),
    "bfloat16": ({"inputs": [("bf16", "[1, 2, 3, 4]"), ("bf16", "[1, 5, 6, 2]")]}, "error"),
    "coordinates of another count": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 3]"]}, "error"),
}


@pytest.mark.parametrize("name", MS_CASES)
def test_com_microsoft_case(name):
    spec, expected = MS_CASES[name]
    check_case("GridSample", {"opset": OPSET, **spec, "domain": MS}, expected)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=2), st.data(),
       st.sampled_from([None, "bilinear", "nearest", "bicubic"]),
       st.sampled_from(["zeros", "border", "reflection"]), st.booleans(),
       st.sampled_from([np.float32, np.float16]))
def test_com_microsoft_matches_onnxruntime(spatial, data, mode, padding, align, dtype):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel
    (f32 and f16: it has no f64 one)."""
    n, c = data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3))
    out = [data.draw(st.integers(1, 3)) for _ in spatial]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    grid = rng.uniform(-1.2, 1.2, [n] + out + [2]).astype(dtype)
    attrs = {"padding_mode": padding, "align_corners": int(align)}
    if mode is not None:
        attrs["mode"] = mode
    tol = 1e-4 if dtype is np.float32 else 1e-2
    check_against_onnxruntime("GridSample", [random_array([n, c] + spatial).astype(dtype), grid],
                              attrs, rtol=tol, atol=tol)
