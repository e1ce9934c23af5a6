"""DeformConv's kernel vs onnx's reference (2-D, its only case) and onnxruntime (2-D, also
spatial axes of size 1, where the reference divides by zero); the spec's other ranks
through what they must equal: Conv where no tap moves, and the 2-D kernel over an axis
of size 1."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_logic.kernels import load_kernel

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)


@st.composite
def deform_inputs(draw, smallest=2, ranks=(2,)):
    """X, W, offset, B?, mask? and attributes of one N-D deformable convolution, offsets of
    up to two elements either way (samples falling outside the input too)."""
    rng = np.random.default_rng(draw(seeds))
    nd = draw(st.sampled_from(ranks))
    group, offset_group = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    c = group * offset_group * draw(st.integers(1, 2))
    m = group * draw(st.integers(1, 2))
    sizes = [draw(st.integers(smallest, 5)) for _ in range(nd)]
    kernel = [draw(st.integers(1, min(3, n))) for n in sizes]
    attrs = {"group": group, "offset_group": offset_group,
             "strides": [draw(st.integers(1, 2)) for _ in range(nd)],
             "pads": [draw(st.integers(0, 1)) for _ in range(2 * nd)]}
    pads = [attrs["pads"][i] + attrs["pads"][i + nd] for i in range(nd)]
    dil = [draw(st.integers(1, 2)) for _ in range(nd)]
    if all((k - 1) * d + 1 <= n + p for k, d, n, p in zip(kernel, dil, sizes, pads)):
        attrs["dilations"] = dil  # (where the dilated kernel fits)
    d = attrs.get("dilations", [1] * nd)
    out = [(n + p - d[i] * (k - 1) - 1) // attrs["strides"][i] + 1
           for i, (n, k, p) in enumerate(zip(sizes, kernel, pads))]
    taps = int(np.prod(kernel))
    n = draw(st.integers(1, 2))
    arrays = [rand(rng, [n, c] + sizes), rand(rng, [m, c // group] + kernel),
              rand(rng, [n, offset_group * taps * nd] + out, low=-2, high=2),
              rand(rng, [m]) if draw(st.booleans()) else None,
              rand(rng, [n, offset_group * taps] + out, low=0, high=1)
              if draw(st.booleans()) else None]
    return arrays, attrs


@FAST
@given(deform_inputs())
def test_deform_conv(case):
    arrays, attrs = case
    check("DeformConv", arrays, attrs, opset=22, atol=1e-4)


@settings(max_examples=8, deadline=None)
@given(deform_inputs(smallest=1))
def test_deform_conv_matches_onnxruntime(case):
    arrays, attrs = case
    check("DeformConv", arrays, attrs, opset=22, atol=1e-4, ort=True)


def test_deform_conv_half():
    rng = np.random.default_rng(5)
    arrays = [rand(rng, [1, 2, 4, 4], "f16", -1, 1), rand(rng, [2, 2, 2, 2], "f16", -1, 1),
              rand(rng, [1, 8, 3, 3], "f16", -1, 1)]
    got = check("DeformConv", arrays, {}, opset=22, rtol=1e-2, atol=1e-2)
    assert got[0].dtype == np.float16


def run(op, arrays, attrs):
    return load_kernel(op)(attrs, opset=22)(*arrays)[0]


@FAST
@given(deform_inputs(ranks=(1, 2, 3)))
def test_no_offsets_is_conv(case):
    # with every offset 0 and no mask, each tap samples its own element: Conv
    arrays, attrs = case
    x, w, offset, b, _ = arrays
    got = run("DeformConv", [x, w, np.zeros_like(offset), b], attrs)
    conv_attrs = {k: v for k, v in attrs.items() if k != "offset_group"}
    np.testing.assert_allclose(got, run("Conv", [x, w, b], conv_attrs), rtol=1e-4, atol=1e-4)


@FAST
@given(deform_inputs(ranks=(1, 2)))
def test_a_unit_axis_changes_nothing(case):
    # N-D over an extra leading axis of size 1 (kernel 1, no offset along it) is the N-D one
    arrays, attrs = case
    x, w, offset, b, mask = arrays
    nd, og = x.ndim - 2, attrs["offset_group"]
    taps = int(np.prod(w.shape[2:]))
    shifts = offset.reshape(x.shape[0], og, taps, nd, *offset.shape[2:])
    shifts = np.concatenate([np.zeros_like(shifts[:, :, :, :1]), shifts], axis=3)
    grow = lambda a: a[:, :, None]  # noqa: E731
    lifted = [grow(x), grow(w), grow(shifts.reshape(x.shape[0], -1, *offset.shape[2:])), b,
              None if mask is None else grow(mask)]
    lifted_attrs = {**attrs, "strides": [1] + attrs["strides"],
                    "pads": [0] + attrs["pads"][:nd] + [0] + attrs["pads"][nd:]}
    if "dilations" in attrs:
        lifted_attrs["dilations"] = [1] + attrs["dilations"]
    np.testing.assert_allclose(run("DeformConv", lifted, lifted_attrs)[:, :, 0],
                               run("DeformConv", arrays, attrs), rtol=1e-5, atol=1e-5)
