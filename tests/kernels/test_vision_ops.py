"""Vision kernels (GridSample, AffineGrid, RoiAlign, NonMaxSuppression, MaxUnpool,
Col2Im) vs onnx's reference evaluator, on random sizes and attributes."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_logic.testing import reference_outputs

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)
small = st.integers(1, 4)


@FAST
@given(seed=seeds, spatial=st.lists(st.integers(2, 5), min_size=1, max_size=3), data=st.data())
def test_grid_sample(seed, spatial, data):
    rng = np.random.default_rng(seed)
    out = [data.draw(small) for _ in spatial]
    attrs = {"mode": data.draw(st.sampled_from(["nearest", "linear", "cubic"])),
             "padding_mode": data.draw(st.sampled_from(["zeros", "border", "reflection"])),
             "align_corners": int(data.draw(st.booleans()))}
    grid = rand(rng, [2] + out + [len(spatial)], "f32", -1.3, 1.3)
    check("GridSample", [rand(rng, [2, 3] + spatial), grid], attrs, opset=20)


@FAST
@given(seed=seeds, n=small, spatial=st.lists(st.integers(1, 5), min_size=2, max_size=3),
       align=st.booleans())
def test_affine_grid(seed, n, spatial, align):
    # the values against onnx's reference; size is a constant, so the shape is exact
    rng = np.random.default_rng(seed)
    k = len(spatial)
    size = np.array([n, 3] + spatial, np.int64)
    assert check("AffineGrid", [rand(rng, [n, k, k + 1]), size], {"align_corners": int(align)},
                 opset=20) is not None


@FAST
@given(seed=seeds, k=small, oh=small, ow=small, data=st.data())
def test_roi_align(seed, k, oh, ow, data):
    rng = np.random.default_rng(seed)
    corners = rng.uniform(-1, 9, (k, 2, 2))
    rois = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    attrs = {"output_height": oh, "output_width": ow,
             "sampling_ratio": data.draw(st.integers(0, 2)),
             "mode": data.draw(st.sampled_from(["avg", "max"])),
             "coordinate_transformation_mode": data.draw(st.sampled_from(
                 ["half_pixel", "output_half_pixel"]))}
    check("RoiAlign", [rand(rng, [2, 3, 6, 8]), rois.astype(np.float32),
                       rng.integers(0, 2, k).astype(np.int64)], attrs, opset=16)


@FAST
@given(seed=seeds, b=st.integers(1, 2), c=st.integers(1, 3), s=st.integers(1, 9),
       m=st.integers(0, 6), iou=st.floats(0, 1), center=st.sampled_from([0, 1]),
       score=st.none() | st.floats(0, 1))
def test_non_max_suppression(seed, b, c, s, m, iou, center, score):
    rng = np.random.default_rng(seed)
    ins = [rand(rng, [b, s, 4], "f32", 0, 4), rand(rng, [b, c, s], "f32", 0, 1),
           np.array([m], np.int64), np.array([iou], np.float32)]
    if score is not None:
        ins.append(np.array([score], np.float32))
    check("NonMaxSuppression", ins, {"center_point_box": center})


@FAST
@given(seed=seeds, pooled=st.lists(st.integers(1, 3), min_size=1, max_size=3), data=st.data())
def test_max_unpool(seed, pooled, data):
    # MaxPool's input of the size unpooling gives back (see tests/ops/test_MaxUnpool.py)
    k = [data.draw(st.integers(1, 3)) for _ in pooled]
    s = [data.draw(st.integers(1, 3)) for _ in pooled]
    attrs = {"kernel_shape": k, "strides": s}
    x = rand(np.random.default_rng(seed), [2, 2] + [(p - 1) * si + ki for p, si, ki
                                                   in zip(pooled, s, k)])
    values, idx = reference_outputs("MaxPool", [x], attrs, n_outputs=2)
    check("MaxUnpool", [values, idx], attrs)


@FAST
@given(seed=seeds, image=st.lists(st.integers(2, 6), min_size=1, max_size=3), data=st.data())
def test_col2im(seed, image, data):
    r = len(image)
    block = [data.draw(st.integers(1, d)) for d in image]
    attrs = {"strides": [data.draw(st.integers(1, 2)) for _ in range(r)],
             "pads": [data.draw(st.integers(0, 1)) for _ in range(2 * r)],
             "dilations": [1] * r}
    counts = [(image[i] + attrs["pads"][i] + attrs["pads"][i + r] - block[i]) //
              attrs["strides"][i] + 1 for i in range(r)]
    x = rand(np.random.default_rng(seed), [2, 2 * int(np.prod(block)), int(np.prod(counts))])
    check("Col2Im", [x, np.array(image, np.int64), np.array(block, np.int64)], attrs)
