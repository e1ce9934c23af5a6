"""Conv's paths (kernels/Conv.py, kernels/taps.py) vs onnx's reference evaluator:
depthwise (one input channel per group) and grouped 1x1 convolutions with strides, pads
and dilations, columns made a few groups at a time, equal filters, scratch reuse."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_logic.kernels import conv_parts as conv_module
from shape_logic.kernels import load_kernel, workers
from shape_logic.kernels.depthwise import DepthwisePlan
from shape_logic.kernels import taps as taps_module
from shape_logic.kernels.taps import ExactPlan, RowPlan, TapPlan, tap_plan

from .reference import check, rand, seeds

FAST = settings(max_examples=25, deadline=None)


@st.composite
def geometry(draw, kernel_max=3):
    nd = draw(st.integers(1, 3))
    kernel = [draw(st.integers(1, kernel_max)) for _ in range(nd)]
    attrs = {"kernel_shape": kernel,
             "strides": [draw(st.integers(1, 3)) for _ in range(nd)],
             "dilations": [draw(st.integers(1, 2)) for _ in range(nd)]}
    pad_kind = draw(st.sampled_from(["none", "pads", "SAME_UPPER", "SAME_LOWER", "VALID"]))
    if pad_kind == "pads":
        attrs["pads"] = [draw(st.integers(0, 2)) for _ in range(2 * nd)]
    elif pad_kind != "none":
        attrs["auto_pad"] = pad_kind
    size = [draw(st.integers(1, 9)) for _ in range(nd)]
    return attrs, size


@FAST
@given(seed=seeds, geo=geometry(), channels=st.integers(1, 6), mult=st.integers(1, 2),
       batch=st.integers(1, 2), bias=st.booleans())
def test_depthwise(seed, geo, channels, mult, batch, bias):
    rng = np.random.default_rng(seed)
    attrs, size = geo
    attrs["group"] = channels
    w = rand(rng, (channels * mult, 1, *attrs["kernel_shape"]))
    b = rand(rng, (channels * mult,)) if bias else None
    check("Conv", [rand(rng, (batch, channels, *size)), w, b], attrs)


@pytest.mark.parametrize("size,attrs", [
    ((7, 8), {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}),  # ShuffleNet's
    ((6, 9), {"kernel_shape": [3, 2], "pads": [1, 0, 2, 1], "dilations": [1, 2]}),
    ((5, 5), {"kernel_shape": [2, 3], "auto_pad": "SAME_LOWER"}),
    ((9,), {"kernel_shape": [3], "pads": [2, 0], "dilations": [3]}),
    ((4, 3, 5), {"kernel_shape": [2, 2, 3], "pads": [1, 0, 1, 0, 1, 1]}),
    ((4, 6), {"kernel_shape": [3, 3], "pads": [0, 1, 0, 0]}),  # one side only
    ((6, 7), {"kernel_shape": [3, 3]}),  # stride 1 unpadded: the input is its phase
    ((9, 8), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ((9, 11), {"kernel_shape": [3, 3], "strides": [2, 3], "pads": [1, 2, 0, 1],
               "dilations": [2, 1]}),
    ((8, 8), {"kernel_shape": [5, 5], "strides": [2, 2], "pads": [2, 2, 2, 2],
              "dilations": [2, 2]}),
    ((7, 6, 5), {"kernel_shape": [3, 2, 3], "strides": [2, 1, 2], "pads": [1, 0, 1] * 2}),
    # shifted rows of U whose phases step up as their shifts step down
    ((13,), {"kernel_shape": [6], "strides": [3], "dilations": [2], "pads": [1, 1]}),
    ((11, 13), {"kernel_shape": [3, 3], "strides": [2, 2], "dilations": [3, 3],
                "pads": [1, 1, 1, 1]}),
])
@pytest.mark.parametrize("mult,batch", [(1, 1), (2, 2)])
def test_depthwise_path(monkeypatch, size, attrs, mult, batch):
    """One input channel per group: depthwise.py (the input copied once per tap along
    the last axis, one [R, S] @ [S, positions] product per channel, the row offsets
    summed), stride 1 (RowPlan: wrapped columns zeroed) and strided (TapPlan: phases)."""
    used = []
    monkeypatch.setattr(DepthwisePlan, "run",
                        lambda self, *a, f=DepthwisePlan.run: used.append(f(self, *a)))
    rng = np.random.default_rng(len(size) + mult)
    c = 5
    w = rand(rng, (c * mult, 1, *attrs["kernel_shape"]))
    check("Conv", [rand(rng, (batch, c, *size)), w, rand(rng, (c * mult,))],
          {**attrs, "group": c}, rtol=1e-5)
    assert used


def depthwise_reference(x, w, b, strides, pads, dilations):
    """A plain 2-D depthwise convolution (one input channel per group, M = C * mult),
    float64, tap by tap."""
    n, c, h, wd = x.shape
    mult = w.shape[0] // c
    (sh, sw), (dh, dw) = strides, dilations
    kh, kw = w.shape[2:]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (xp.shape[2] - (kh - 1) * dh - 1) // sh + 1
    ow = (xp.shape[3] - (kw - 1) * dw - 1) // sw + 1
    xs = np.repeat(xp, mult, axis=1)  # filter ch reads input channel ch // mult
    y = np.zeros((n, c * mult, oh, ow))
    for a in range(kh):
        for bb in range(kw):
            window = xs[:, :, a * dh:a * dh + (oh - 1) * sh + 1:sh,
                        bb * dw:bb * dw + (ow - 1) * sw + 1:sw]
            y += window * w[:, 0, a, bb].astype(np.float64)[None, :, None, None]
    if b is not None:
        y += b.astype(np.float64)[None, :, None, None]
    return y


def run_depthwise(x, w, b, attrs, addend=None, relu=False, order=None, threads=1):
    kernel = load_kernel("Conv")(attrs)
    kernel.relu, kernel.order = relu, order
    if addend is not None:
        kernel.n_inputs = (2, 4)
    with workers.threads(threads):
        return kernel(x, w, b, addend)[0]


DEPTHWISE_CASES = {  # (x shape, stride, pads, dilation)
    "shufflenet 3x3": ((2, 12, 14, 14), 1, [1, 1, 1, 1], 1),
    "3x3 stride 2": ((2, 12, 15, 16), 2, [1, 1, 1, 1], 1),
    "dilated 2": ((2, 12, 13, 11), 1, [2, 2, 2, 2], 2),
    "dilated strided": ((2, 12, 17, 16), 2, [2, 1, 2, 1], 2),
    "uneven pads": ((2, 12, 9, 10), 1, [0, 2, 1, 0], 1),
    "unpadded": ((2, 12, 8, 9), 1, [0, 0, 0, 0], 1),
}


@pytest.mark.parametrize("case", DEPTHWISE_CASES)
@pytest.mark.parametrize("mult", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order_kind", [None, "spaced", "any"])
@pytest.mark.parametrize("threads", [1, 3])
def test_depthwise_against_a_plain_reference(monkeypatch, case, mult, dtype, order_kind,
                                             threads):
    """Bias, a fused residual addend and Relu, a fused channel order (ShuffleNet's
    shuffle: evenly spaced, exec_shuffle.py; or any), float64, two images, and the call
    cut into whole groups per part (three threads, MIN_WORK 1)."""
    shape, stride, pads, dilation = DEPTHWISE_CASES[case]
    rng = np.random.default_rng(5)
    c = shape[1]
    m = c * mult
    x = rng.uniform(-3, 3, shape).astype(dtype)
    w = rng.uniform(-3, 3, (m, 1, 3, 3)).astype(dtype)
    b = rng.uniform(-3, 3, (m,)).astype(dtype)
    attrs = {"group": c, "kernel_shape": [3, 3], "strides": [stride] * 2, "pads": pads,
             "dilations": [dilation] * 2}
    plain = depthwise_reference(x, w, b, [stride] * 2, pads, [dilation] * 2)
    order = None
    if order_kind == "spaced":  # row r of group q at channel q + G * r
        order = list(np.arange(m).reshape(c, mult).T.reshape(-1).argsort())
    elif order_kind == "any":
        order = list(np.random.default_rng(1).permutation(m))
    if order is not None:
        plain = plain[:, np.argsort(order)]  # filter ch lands at channel order[ch]
    addend = rng.uniform(-3, 3, plain.shape).astype(dtype)
    want = np.maximum(plain + addend, 0)
    used = []
    monkeypatch.setattr(DepthwisePlan, "run",
                        lambda self, *a, f=DepthwisePlan.run: used.append(f(self, *a)))
    if threads > 1:
        monkeypatch.setattr(workers, "MIN_WORK", 1)
    got = run_depthwise(x, w, b, attrs, addend, True, order, threads)
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 if dtype == np.float32 else 1e-9)
    assert len(used) == (min(threads, c) if threads > 1 else 1)
    plain_only = run_depthwise(x, w, None, attrs, threads=threads)
    np.testing.assert_allclose(plain_only, depthwise_reference(
        x, w, None, [stride] * 2, pads, [dilation] * 2), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("threads", [1, 2])
def test_depthwise_past_the_scratch_limit(monkeypatch, threads):
    # (a scratch buffer past scratch.LIMIT is a new array at each request: the products read
    # U as split filled it, not a fresh one - PicoDet's [1, 16, 400, 304] 3x3 computed on
    # garbage; here the limit is lowered, as a smaller input crosses it)
    from shape_logic.kernels import scratch as scratch_module

    monkeypatch.setattr(scratch_module, "LIMIT", 4096)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 16, 30, 31)).astype(np.float32)
    w = rng.standard_normal((16, 1, 3, 3)).astype(np.float32)
    attrs = {"group": 16, "kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}
    y = run_depthwise(x, w, None, attrs, threads=threads)
    plain = depthwise_reference(x, w, None, [1, 1], [1, 1, 1, 1], [1, 1])
    np.testing.assert_allclose(y, plain, rtol=1e-5, atol=1e-5)


def test_depthwise_float64_weights_on_float32_input():
    """Weights of another dtype: computed in the wider one, as the columns were."""
    rng = np.random.default_rng(6)
    x = rng.uniform(-3, 3, (1, 6, 9, 9)).astype(np.float32)
    w = rng.uniform(-3, 3, (6, 1, 3, 3))
    attrs = {"group": 6, "pads": [1, 1, 1, 1], "strides": [2, 2]}
    got = run_depthwise(x, w, None, attrs)
    want = depthwise_reference(x, w, None, [2, 2], [1, 1, 1, 1], [1, 1])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("geometry", [
    ((14, 14), (3, 3), (1, 1), (1, 1), (1, 1), (14, 14)),  # RowPlan: shifts of one phase
    ((56, 56), (3, 3), (2, 2), (1, 1), (1, 1), (28, 28)),  # phases and their shifts
    ((9, 9, 9), (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), (9, 9, 9)),  # 9 row offsets
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_depthwise_copies_and_sums_are_off_aliasing(geometry, dtype):
    """The pitches of U's and V's rows keep every copy of a shifted row and every sum of
    V's shifted rows from writing just ahead of where it reads, modulo a page (ALIASED:
    ~15x slower; a [1, 272, 14, 14] depthwise's copies took 16 -> 81 us so)."""
    from shape_logic.kernels import depthwise as dw_module

    plan = DepthwisePlan(tap_plan(*geometry), geometry[-1])
    for nc in (1, 7, 272, 1000):
        u_pitch, v_pitch = plan.pitches(nc, np.dtype(dtype))
        assert u_pitch >= nc * plan.size and v_pitch >= nc * plan.size + plan.leads[-1]
        u = np.zeros((len(plan.cols), u_pitch), dtype)
        v = np.zeros((len(plan.leads), v_pitch), dtype)
        copies, _, _, _, sums, _ = plan.views(u, v, 1, nc, 1)
        pairs = [(dst[k], src[k]) for dst, src in copies for k in range(len(dst))] + sums
        assert copies and sums
        for dst, src in pairs:
            ahead = dst.__array_interface__["data"][0] - src.__array_interface__["data"][0]
            assert ahead % dw_module.PAGE not in dw_module.ALIASED, (nc, ahead)


@FAST
@given(seed=seeds, geo=geometry(kernel_max=1), group=st.integers(2, 4),
       cg=st.integers(1, 4), mg=st.integers(1, 4), bias=st.booleans())
def test_grouped_1x1(seed, geo, group, cg, mg, bias):
    rng = np.random.default_rng(seed)
    attrs, size = geo
    attrs["group"] = group
    w = rand(rng, (mg * group, cg, *attrs["kernel_shape"]))
    b = rand(rng, (mg * group,)) if bias else None
    check("Conv", [rand(rng, (2, cg * group, *size)), w, b], attrs)


def test_strided_1x1_with_end_padding_reads_the_padding():
    # the input is as large as the grid, but stride 2 reads position 2: padding
    rng = np.random.default_rng(0)
    check("Conv", [rand(rng, (1, 3, 2)), rand(rng, (3, 3, 1))],
          {"strides": [2], "pads": [0, 1], "kernel_shape": [1]})


@pytest.mark.parametrize("strides", [[1, 2], [1, 1]])  # TapPlan, RowPlan
@pytest.mark.parametrize("group", [1, 3])
def test_columns_a_few_groups_at_a_time(monkeypatch, group, strides):
    monkeypatch.setattr(conv_module, "CHUNK_BYTES", 256)  # one group per pass
    rng = np.random.default_rng(1)
    attrs = {"group": group * 2, "pads": [1, 0, 2, 1], "strides": strides}
    check("Conv", [rand(rng, (2, 6, 7, 8)), rand(rng, (group * 4, 6 // (group * 2), 3, 2)),
                   rand(rng, (group * 4,))], attrs)


def test_stride_one_uses_whole_rows_and_strides_use_phases():
    assert isinstance(tap_plan((8, 8), (3, 3), (1, 1), (1, 1), (1, 1), (8, 8)), RowPlan)
    assert isinstance(tap_plan((8, 8), (3, 3), (2, 2), (1, 1), (1, 1), (4, 4)), TapPlan)
    one = tap_plan((8, 8), (1, 1), (1, 1), (1, 1), (0, 0), (8, 8))
    assert isinstance(one, TapPlan) and one.identity  # the input is its own column matrix


@pytest.mark.parametrize("size,kernel", [(9, 3), (3, 3), (3, 1)])
@pytest.mark.parametrize("parts", [False, True])
@pytest.mark.parametrize("group", [1, 2])
def test_equal_filters_give_bitwise_equal_channels(monkeypatch, group, parts, size, kernel):
    """A filter repeating an earlier one of its group (bias too) gives the same bits:
    over many large terms BLAS may round equal rows differently. Also with the call cut
    into as many parts as it goes, for three threads (conv_parts.py); a size of 3 has
    fewer positions than filters (one group: the parts split the filters, and a repeat
    may be made in another part than its original)."""
    if parts:
        monkeypatch.setattr(workers, "MIN_WORK", 1)
    rng = np.random.default_rng(2)
    m, c = 40, 64 * group
    mg = m // group
    w = rand(rng, (m, c // group, kernel, kernel), low=0.5, high=1.0)
    b = rand(rng, (m,))
    w[mg - 1], b[mg - 1] = w[0], b[0]  # a repeat within group 0
    w[mg // 2] = w[0]  # the same filter with another bias: not a repeat
    if group > 1:
        w[mg], b[mg] = w[0], b[0]  # group 1 sees other channels: not a repeat
    x = rand(rng, (1, c, size, size), low=1e3, high=1e4)
    with workers.threads(3 if parts else 1):
        (y,) = check("Conv", [x, w, b], {"group": group, "pads": [kernel // 2] * 4})
    assert np.array_equal(y[:, mg - 1], y[:, 0])


def test_results_are_not_scratch():
    """Temporaries are reused from call to call: a result must never be one of them."""
    rng = np.random.default_rng(3)
    kernel = load_kernel("Conv")({"group": 4, "pads": [1, 1, 1, 1], "strides": [1, 2]})
    w = rand(rng, (8, 1, 3, 3))
    x1, x2 = rand(rng, (1, 4, 6, 7)), rand(rng, (1, 4, 6, 7))
    (y1,) = kernel(x1, w)
    kept = y1.copy()
    kernel(x2, w)
    np.testing.assert_array_equal(y1, kept)


@FAST
@given(seed=seeds, geo=geometry(kernel_max=5), batch=st.integers(1, 2),
       lo_share=st.floats(0, 1), hi_share=st.floats(0, 1))
def test_tap_blocks_copy_every_tap(seed, geo, batch, lo_share, hi_share):
    """TapPlan.copy_taps copies a block of taps (one phase) per call: the columns equal
    the taps one by one, for any strides and dilations, a range of positions, and a
    channel slice of several images (a non-contiguous input: the grouped path's)."""
    from shape_logic.kernels.spatial import geometry as spatial_geometry

    attrs, size = geo
    rng = np.random.default_rng(seed)
    x = rand(rng, (batch, 3, *size))
    kernel = load_kernel("Conv")(attrs)
    try:
        kern, strides, dil, begin, _, out = spatial_geometry(
            kernel, x, attrs["kernel_shape"], attrs.get("strides"), attrs.get("dilations"),
            attrs.get("pads"), attrs.get("auto_pad", "NOTSET"))
    except Exception:  # noqa: BLE001  (a window wider than the padded input)
        return
    if 0 in out:
        return
    plan = TapPlan(tuple(size), tuple(kern), tuple(strides), tuple(dil), tuple(begin),
                   tuple(out))
    flat = plan.split(x, 0).copy()
    lo = int(lo_share * (plan.length - 1))
    hi = lo + 1 + int(hi_share * (plan.length - lo - 1))
    k = len(plan.taps)
    want = np.stack([plan.tap(flat, i)[..., lo:hi] for i in range(k)], axis=2)
    for channels in (slice(None), slice(1, None)):
        got = np.full((batch, len(range(3)[channels]), k, hi - lo), np.nan, np.float32)
        plan.copy_taps(flat[:, channels], got, 0, lo, hi)
        np.testing.assert_array_equal(got, want[:, channels])


def test_tap_blocks_of_a_strided_kernel():
    """7x7/2 (the first convolution of Inception and DenseNet): 4 blocks, not 49 taps."""
    plan = tap_plan((224, 224), (7, 7), (2, 2), (1, 1), (3, 3), (112, 112))
    assert isinstance(plan, TapPlan) and len(plan.blocks) == 4
    assert sum(np.prod(b[3]) for b in plan.blocks) == 49


@pytest.fixture
def exact_rows(monkeypatch):
    """Every strided 2-D plan with a cut takes ExactPlan (rows of any width)."""
    monkeypatch.setattr(taps_module, "EXACT_WIDTH", 1)
    tap_plan.cache_clear()
    yield
    tap_plan.cache_clear()


EXACT_CASES = [  # (many filters: ExactPlan is for products as many as the columns)
    ((1, 3, 11, 10), (16, 3, 3, 3), {"strides": [2, 2]}),  # squeezenet's first, no pads
    ((2, 3, 12, 12), (14, 3, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ((1, 2, 15, 13), (49, 2, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),  # 7x7/2
    ((1, 2, 9, 11), (6, 2, 3, 2), {"strides": [2, 3], "dilations": [2, 1],
                                   "pads": [1, 0, 2, 1]}),
    ((1, 1, 9, 9), (5, 1, 3, 3), {"strides": [2, 1], "pads": [1, 1, 1, 1],
                                  "dilations": [2, 2]}),
]


@pytest.mark.parametrize("case", range(len(EXACT_CASES)))
@pytest.mark.parametrize("parts", [1, 3])
def test_exact_rows_agree_with_the_reference(exact_rows, monkeypatch, case, parts):
    """ExactPlan (columns of the output positions only, no cut): whole, and in parts by
    rows of positions or by filters."""
    x_shape, w_shape, attrs = EXACT_CASES[case]
    rng = np.random.default_rng(case)
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    made = []
    monkeypatch.setattr(ExactPlan, "grid_length",
                        lambda self, f=ExactPlan.grid_length: made.append(1) or f(self))
    with workers.threads(parts):
        got = check("Conv", [rand(rng, x_shape), rand(rng, w_shape),
                             rand(rng, w_shape[:1])], attrs)
    assert got is not None and made  # (the reference ran; the Conv took ExactPlan)


def test_exact_rows_copy_the_taps_of_the_output_positions(exact_rows):
    """ExactPlan's columns of output rows [r0, r1) are TapPlan's columns cut to the
    output's width: the same taps, the grid's extra columns left out."""
    geo = ((11, 13), (3, 3), (2, 2), (1, 1), (1, 1), (6, 7))
    exact, plain = tap_plan(*geo, 3, 14), TapPlan(*geo)
    assert isinstance(exact, ExactPlan) and exact.compact and not plain.compact
    # fewer products than half the column rows, or not one group: the cut stays
    assert type(tap_plan(*geo, 3, 13)) is TapPlan and type(tap_plan(*geo)) is TapPlan
    x = rand(np.random.default_rng(0), (2, 3, 11, 13))
    flat = plain.split(x, 0).copy()
    pad = ((0, 0), (0, 0), (0, plain.size - plain.length))  # the taps on the whole grid
    want = np.stack([plain.cut(np.pad(plain.tap(flat, i), pad)) for i in range(9)],
                    axis=2)  # [N, C, taps, *out]
    for r0, r1 in ((0, 6), (2, 5)):
        got = np.full((2, 3, 9, (r1 - r0) * 7), np.nan, np.float32)
        exact.copy_taps(flat, got, 0, r0 * 7, r1 * 7)
        np.testing.assert_array_equal(got.reshape(2, 3, 9, r1 - r0, 7),
                                      want[..., r0:r1, :])


@pytest.mark.parametrize("attrs, x_shape, w_shape", [
    ({"group": 4}, (1, 12, 5, 6), (8, 3, 1, 1)),  # grouped 1x1 (ShuffleNet's)
    ({}, (2, 6, 4, 5), (3, 6, 1, 1)),  # fewer filters than channels: bias not folded
    ({"group": 2, "pads": [1, 1, 1, 1]}, (1, 4, 5, 5), (6, 2, 3, 3)),
])
def test_bias_plane_gives_the_bits_of_a_bias_column(monkeypatch, attrs, x_shape, w_shape):
    """A small bias is added as a plane kept from call to call (Conv.PLANE_BYTES), with
    the bits of the [M, 1] column; a new bias array makes a new plane."""
    from shape_logic.kernels import Conv as conv_kernel

    rng = np.random.default_rng(len(x_shape) + w_shape[0])
    x, w = rand(rng, x_shape), rand(rng, w_shape)
    kernel = load_kernel("Conv")(attrs)
    kernel.relu = True
    for b in (rand(rng, w_shape[:1]), rand(rng, w_shape[:1])):
        with_plane = kernel(x, w, b)[0]
        assert kernel._plane[0] is not None and kernel._plane[2].flags.c_contiguous
        with_plane_again = kernel(x, w, b)[0]
        monkeypatch.setattr(conv_kernel, "PLANE_BYTES", 0)
        column = load_kernel("Conv")(attrs)
        column.relu = True
        assert np.array_equal(with_plane, column(x, w, b)[0])
        assert np.array_equal(with_plane_again, with_plane)
        monkeypatch.undo()
