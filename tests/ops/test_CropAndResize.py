"""CropAndResize (com.microsoft): rules/CropAndResize.lp on data cases (the crop size's values
as the output's height and width), and the rules and the kernel against onnxruntime on
random images, regions and crop sizes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic import solve
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test


def crop(*v):
    return np.array(v, np.int32)


CASES = {
    "a constant crop size": ({"inputs": ["[n, c, h, w]", "R", ("i32", "[k]"), crop(7, 5)]},
                             {"y0": "[k, c, 7, 5]", "x1": "[k, 4]",
                              "dtypes": {"y0": "f32"}}),
    "channels first": ({"inputs": ["[2, 3, 16, 16]", "[4, 4]", ("i32", "B"), crop(5, 6)]},
                       {"y0": "[4, 3, 5, 6]", "x2": "[4]"}),
    "an unknown crop size: fresh names": (
        {"inputs": ["[n, c, h, w]", "[k, 4]", ("i32", "B"), ("i32", "C")]},
        {"y0": "[k, c, _1, _2]", "x3": "[2]", "x2": "[k]"}),
    "backward: the regions from the output": (
        {"inputs": ["[1, 8, 5, 5]", "R", ("i32", "B"), ("i32", "C")],
         "outputs": {"y0": {"shape": "[6, 8, 3, 3]"}}},
        {"x1": "[6, 4]", "x2": "[6]", "x3": "[2]"}),
    "f16": ({"inputs": [("f16", "[n, c, h, w]"), ("f16", "[k, 4]"), ("i32", "[k]"),
                        crop(2, 2)]}, {"dtypes": {"y0": "f16"}}),
    "f64 (the schema's; no CPU kernel)": (
        {"inputs": [("f64", "[n, c, h, w]"), ("f64", "[k, 4]"), ("i32", "[k]"), crop(2, 2)]},
        {"dtypes": {"y0": "f64"}}),
    "nearest": ({"inputs": ["[n, c, h, w]", "[k, 4]", ("i32", "[k]"), crop(3, 1)],
                 "attrs": {"mode": "nearest", "extrapolation_value": -1.0}},
                {"y0": "[k, c, 3, 1]"}),
    "regions and indices differ": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[2]"),
                                               crop(2, 2)]}, "error"),
    "regions of 5 columns": ({"inputs": ["[1, 8, 5, 5]", "[3, 5]", ("i32", "[3]"), crop(2, 2)]},
                             "error"),
    "3-D X": ({"inputs": ["[8, 5, 5]", "[3, 4]", ("i32", "[3]"), crop(2, 2)]}, "error"),
    "5-D X": ({"inputs": ["[1, 1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"), crop(2, 2)]}, "error"),
    "int64 batch indices": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i64", "[3]"), crop(2, 2)]},
                            "error"),
    "an int64 crop size": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"),
                                       np.array([2, 2], np.int64)]}, "error"),
    "a crop size of three": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"),
                                         crop(2, 2, 2)]}, "error"),
    "a crop size of rank 2": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"),
                                          np.array([[2, 2]], np.int32)]}, "error"),
    "a zero crop height": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"), crop(0, 2)]},
                           "error"),
    "a negative crop width": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"),
                                          crop(2, -1)]}, "error"),
    "regions of another type": ({"inputs": ["[1, 8, 5, 5]", ("f64", "[3, 4]"), ("i32", "[3]"),
                                            crop(2, 2)]}, "error"),
    "integer images": ({"inputs": [("i32", "[1, 8, 5, 5]"), ("i32", "[3, 4]"), ("i32", "[3]"),
                                   crop(2, 2)]}, "error"),
    "an unknown mode": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]"), crop(2, 2)],
                         "attrs": {"mode": "bicubic"}}, "error"),
    "three inputs": ({"inputs": ["[1, 8, 5, 5]", "[3, 4]", ("i32", "[3]")]}, "error"),
}


test_case = case_test("CropAndResize", CASES, domain=MS)


@pytest.mark.parametrize("op, want", [("Identity", "[k, c, h, w]"), ("Neg", "error")])
def test_a_crop_size_from_the_input_shape(op, want):
    """Resized to the image's own size: the crop size computed from Shape, Slice and Cast
    (symbolic values) gives Y's height and width; negated, it is surely not positive."""
    g = {"name": "g", "opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[n, c, h, w]"},
                    "r": {"dtype": "f32", "shape": "[k, 4]"},
                    "b": {"dtype": "i32", "shape": "B"}},
         "initializers": {"st": {"dtype": "i64", "shape": [1], "data": [2]},
                          "en": {"dtype": "i64", "shape": [1], "data": [4]}},
         "nodes": [{"name": "s", "op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"name": "sl", "op": "Slice", "inputs": ["sh", "st", "en"],
                    "outputs": ["hw"]},
                   {"name": "o", "op": op, "inputs": ["hw"], "outputs": ["hw2"]},
                   {"name": "c", "op": "Cast", "inputs": ["hw2"], "outputs": ["hw32"],
                    "attrs": {"to": 6}},
                   {"name": "cr", "op": "CropAndResize", "domain": MS,
                    "inputs": ["x", "r", "b", "hw32"], "outputs": ["y"]}]}
    sol = solve(g)
    if want == "error":
        assert sol.status == "error"
    else:
        assert sol.status == "ok" and sol.shape("y") == want


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 2), c=st.integers(1, 3),
       h=st.integers(1, 6), w=st.integers(1, 6), k=st.integers(0, 3), ch=st.integers(1, 4),
       cw=st.integers(1, 4), nearest=st.booleans(), f16=st.booleans(),
       extrapolation=st.sampled_from([0.0, -1.5]))
def test_matches_onnxruntime(seed, n, c, h, w, k, ch, cw, nearest, f16, extrapolation):
    """Regions partly outside the image (extrapolated), some on the pixel grid."""
    rng = np.random.default_rng(seed)
    dtype = np.float16 if f16 else np.float32
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    rois = rng.uniform(-0.3, 1.3, (k, 4))
    rois[: k // 2] = np.round(rois[: k // 2] * 4) / 4
    arrays = [x, rois.astype(dtype), rng.integers(0, n, k).astype(np.int32), crop(ch, cw)]
    attrs = {"mode": "nearest" if nearest else "bilinear",
             "extrapolation_value": extrapolation}
    tol = 1e-2 if f16 else 1e-5
    want = check_against_onnxruntime("CropAndResize", arrays, attrs, const=(3,), rtol=tol,
                                     atol=tol)
    assert want is not None and want[0].shape == (k, c, ch, cw)


@pytest.mark.parametrize("shapes, size, attrs, index", [
    (((1, 3, 5, 5), (2, 4), (2,)), (3, 2, 1), {}, np.int32),
    (((1, 3, 5, 5), (2, 4), (2,)), (0, 2), {}, np.int32),
    (((1, 3, 5, 5), (2, 4), (2,)), (2, -1), {}, np.int32),
    (((1, 3, 5, 5), (2, 4), (2,)), (2, 2), {"mode": "bicubic"}, np.int32),
    (((1, 3, 5, 5), (2, 5), (2,)), (2, 2), {}, np.int32),
    (((1, 3, 5, 5), (2, 4), (3,)), (2, 2), {}, np.int32),
    (((3, 5, 5), (2, 4), (2,)), (2, 2), {}, np.int32),
    (((1, 3, 5, 5), (2, 4), (2,)), (2, 2), {}, np.int64),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, size, attrs, index):
    xs, rs, bs = shapes
    arrays = [np.ones(xs, np.float32), np.zeros(rs, np.float32), np.zeros(bs, index),
              crop(*size)]
    assert check_against_onnxruntime("CropAndResize", arrays, attrs, const=(3,)) is None
