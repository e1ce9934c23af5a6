"""Conv by Winograd's F(2x2, 3x3) and F(4x4, 3x3) (kernels/winograd.py: 3x3, stride 1,
one group): agrees with onnx's reference on odd and even sizes, every padding, batches,
with and without a bias, in float32 and float64, in one part and in as many parts as it
goes (by tile rows and by filters); the fused residual Add and Relu and equal filters;
the plan applies only where it should.

Tolerances: float32 rtol 1e-3, atol 1e-4 (the reference sums C * 9 products of values
in [-3, 3] in another order; the transforms add a few ulps of the largest product,
F(4, 3)'s more: its G is rounded), float64 rtol 1e-9, atol 1e-9.
"""
import numpy as np
import pytest

from shape_logic.kernels import load_kernel, winograd, workers
from shape_logic.kernels.winograd_transforms import F2, F4

from .reference import check, rand

CASES = {
    "even, pad 1": ((1, 5, 8, 6), (4, 5, 3, 3), {"pads": [1, 1, 1, 1]}),
    "odd, valid": ((1, 3, 9, 7), (6, 3, 3, 3), {}),
    "pad 2": ((1, 4, 5, 6), (3, 4, 3, 3), {"pads": [2, 2, 2, 2]}),
    "asymmetric pads": ((1, 4, 7, 5), (5, 4, 3, 3), {"pads": [0, 2, 1, 0]}),
    "pads at one end": ((1, 2, 6, 9), (3, 2, 3, 3), {"pads": [2, 0, 0, 1]}),
    "batch of 3": ((3, 6, 7, 8), (9, 6, 3, 3), {"pads": [1, 1, 1, 1]}),
    "same upper": ((2, 3, 5, 4), (4, 3, 3, 3), {"auto_pad": "SAME_UPPER"}),
    "one output row": ((1, 4, 3, 10), (2, 4, 3, 3), {}),
    "one output": ((1, 4, 3, 3), (2, 4, 3, 3), {}),
    "padding larger than the input": ((1, 2, 1, 2), (3, 2, 3, 3), {"pads": [2, 2, 2, 1]}),
}


@pytest.fixture(params=[F2, F4], ids=["F2", "F4"])
def everywhere(request, monkeypatch):
    """Winograd (F2 or F4) for every 3x3 stride-1 convolution of one group."""
    monkeypatch.setattr(winograd, "choice", lambda c, m, out: request.param)
    return request.param


@pytest.fixture(params=["one part", "tile rows", "filters"])
def parts(request, everywhere, monkeypatch):
    if request.param != "one part":
        monkeypatch.setattr(workers, "MIN_WORK", 1)
        monkeypatch.setattr(winograd, "BLOCK_BYTES", {2: 1, 4: 1})  # a block a tile row
    if request.param == "filters":
        monkeypatch.setattr(winograd, "ROWS_U_BYTES", 0)
        monkeypatch.setattr(winograd, "BLOCK_BYTES", {2: 1 << 30, 4: 1 << 30})  # one
    with workers.threads(1 if request.param == "one part" else 3):
        yield


def took_winograd(kernel, x, w) -> bool:
    return kernel._plans[(x.shape, w.shape)][4] is not None


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_winograd_agrees_with_the_reference(parts, case, bias):
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(len(case))
    x, w = rand(rng, x_shape), rand(rng, w_shape)
    b = rand(rng, w_shape[:1]) if bias else None
    check("Conv", [x, w, b], attrs, atol=1e-4)
    kernel = load_kernel("Conv")(attrs)
    kernel(x, w, b)
    assert took_winograd(kernel, x, w)


@pytest.mark.parametrize("case", ["odd, valid", "asymmetric pads", "batch of 3"])
def test_float64(parts, case):
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(7)
    x, w, b = (rand(rng, s, "f64") for s in (x_shape, w_shape, w_shape[:1]))
    got = check("Conv", [x, w, b], attrs, rtol=1e-9, atol=1e-9)
    assert got[0].dtype == np.float64


@pytest.mark.parametrize("relu", [True, False])
@pytest.mark.parametrize("add", [True, False])
def test_fused_add_relu_and_equal_filters(parts, relu, add):
    rng = np.random.default_rng(3)
    x, w, b = rand(rng, (2, 6, 9, 8)), rand(rng, (10, 6, 3, 3)), rand(rng, (10,))
    w[7], b[7] = w[2], b[2]  # a repeat: the same bits
    w[8], b[8] = w[2], b[2]
    attrs = {"pads": [1, 0, 1, 2]}
    with workers.threads(1):
        (want,) = load_kernel("Conv")(attrs)(x, w, b)
    addend = rand(rng, want.shape)
    kernel = load_kernel("Conv")(attrs)
    kernel.relu = relu
    args = [x, w, b]
    if add:
        kernel.n_inputs = (2, 4)
        args.append(addend.copy())
        want = want + addend
    if relu:
        want = np.maximum(want, 0)
    (got,) = kernel(*args)
    assert took_winograd(kernel, x, w)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert np.array_equal(got[:, 7], got[:, 2]) or add  # (the addend differs per channel)
    (again,) = kernel(*args)  # the transformed weights kept: the same bits
    assert np.array_equal(got, again)


def test_new_weights_are_transformed_again(everywhere):
    rng = np.random.default_rng(5)
    x, w = rand(rng, (1, 4, 6, 6)), rand(rng, (3, 4, 3, 3))
    kernel = load_kernel("Conv")({})
    kernel(x, w)
    (got,) = kernel(x, w * 2)
    check("Conv", [x, w * 2], {}, atol=1e-4)
    (want,) = kernel(x, w)
    np.testing.assert_allclose(got, 2 * want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("x_shape,w_shape,attrs,f", [
    ((1, 256, 14, 14), (256, 256, 3, 3), {"pads": [1, 1, 1, 1]}, F2),  # ResNet-50's
    ((1, 128, 56, 56), (256, 128, 3, 3), {"pads": [1, 1, 1, 1]}, F4),  # VGG19's
    ((1, 512, 28, 28), (512, 512, 3, 3), {"pads": [1, 1, 1, 1]}, F4),
])
def test_winograd_where_it_pays(x_shape, w_shape, attrs, f):
    rng = np.random.default_rng(0)
    kernel = load_kernel("Conv")(attrs)
    x = rand(rng, x_shape, low=-1, high=1)
    w = rand(rng, w_shape, low=-0.05, high=0.05)
    (got,) = kernel(x, w)
    assert kernel._plans[(x.shape, w.shape)][4].f is f
    np.testing.assert_allclose(got, direct(x, w, attrs), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("x_shape,w_shape,attrs", [
    ((1, 64, 56, 56), (64, 64, 3, 3), {"pads": [1, 1, 1, 1]}),  # few channels
    ((1, 512, 7, 7), (512, 512, 3, 3), {"pads": [1, 1, 1, 1]}),  # few positions
    ((1, 256, 13, 13), (256, 256, 3, 3), {"pads": [1, 1, 1, 1]}),  # ragged tiles
    ((1, 128, 12, 12), (32, 128, 3, 3), {"pads": [1, 1, 1, 1]}),  # few filters
    ((1, 256, 16, 16), (256, 256, 3, 3), {"strides": [2, 2]}),
    ((1, 256, 16, 16), (256, 256, 3, 3), {"dilations": [2, 2]}),
    ((1, 256, 16, 16), (256, 128, 3, 3), {"group": 2}),
    ((1, 256, 16, 16), (256, 256, 5, 5), {}),
    ((1, 256, 16), (256, 256, 3), {}),  # one spatial axis
])
def test_winograd_only_where_it_applies_and_pays(x_shape, w_shape, attrs):
    rng = np.random.default_rng(0)
    kernel = load_kernel("Conv")(attrs)
    x = rand(rng, x_shape)
    kernel(x, rand(rng, w_shape))
    assert not took_winograd(kernel, x, rand(rng, w_shape))


def test_integers_are_not_transformed(everywhere):
    x = np.arange(2 * 3 * 5 * 5, dtype=np.int32).reshape(2, 3, 5, 5) % 7
    w = np.ones((2, 3, 3, 3), np.int32)
    kernel = load_kernel("Conv")({})
    assert kernel._plans == {} and kernel.plan(x, w, "NOTSET", None, 1, None, None,
                                               None)[4] is None


def direct(x, w, attrs):
    """A float64 convolution by shifted products (stride 1, 2-D)."""
    p = attrs.get("pads", [0, 0, 0, 0])
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    oh, ow = xp.shape[2] - 2, xp.shape[3] - 2
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,mc->nmhw", xp[:, :, i:i + oh, j:j + ow],
                             w[:, :, i, j].astype(np.float64))
    return out
