"""Conv by output-side tap sums (kernels/tap_sums.py: few filters over many channels,
stride 1, two spatial axes): agrees with onnx's reference in one part and cut into as
many parts as it goes, with the bias, a fused residual Add and Relu, equal filters; the
plan applies only where it should."""
import numpy as np
import pytest

from shape_logic.kernels import load_kernel, tap_sums, workers

from .reference import check, rand

CASES = {
    "3x3 same": ((2, 16, 9, 7), (5, 16, 3, 3), {"pads": [1, 1, 1, 1]}),
    "3x3 valid": ((1, 12, 8, 8), (4, 12, 3, 3), {}),
    "5x3 dilated, uneven pads": ((1, 10, 11, 9), (3, 10, 5, 3),
                                 {"pads": [2, 0, 1, 1], "dilations": [1, 2]}),
    "2x2 end pads": ((1, 8, 6, 6), (2, 8, 2, 2), {"pads": [0, 1, 1, 0]}),
    "one output row": ((1, 8, 3, 5), (2, 8, 3, 3), {}),
}


@pytest.fixture(params=[1, 3], ids=["one part", "parts"])
def threads(request, monkeypatch):
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    monkeypatch.setattr(tap_sums, "BLOCK_BYTES", 1)  # a block per output row
    monkeypatch.setattr(tap_sums, "MIN_POSITIONS", 1)  # small planes take the path too
    with workers.threads(request.param):
        yield


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_tap_sums_agree_with_the_reference(threads, case, bias):
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(len(case))
    b = rand(rng, w_shape[:1]) if bias else None
    kernel = load_kernel("Conv")(attrs)
    check("Conv", [rand(rng, x_shape), rand(rng, w_shape), b], attrs)
    x = rand(rng, x_shape)
    kernel(x, rand(rng, w_shape), b)
    assert kernel._plans[(x.shape, w_shape)][2] is not None  # the path was taken


def test_finishing_and_equal_filters(threads):
    rng = np.random.default_rng(3)
    x, w, b = rand(rng, (1, 12, 7, 6)), rand(rng, (4, 12, 3, 3)), rand(rng, (4,))
    w[3], b[3] = w[1], b[1]  # a repeat: the same bits
    attrs = {"pads": [1, 1, 1, 1]}
    (y,) = load_kernel("Conv")(attrs)(x, w, b)
    addend = rand(rng, y.shape)
    kernel = load_kernel("Conv")(attrs)
    kernel.relu, kernel.n_inputs = True, (2, 4)
    (got,) = kernel(x, w, b, addend)
    assert kernel._plans[(x.shape, w.shape)][2] is not None
    np.testing.assert_allclose(got, np.maximum(y + addend, 0), rtol=1e-5, atol=1e-5)
    assert np.array_equal(y[:, 3], y[:, 1])


@pytest.mark.parametrize("x_shape,w_shape,attrs", [
    ((1, 8, 6, 6), (3, 8, 3, 3), {}),  # more than a third as many filters as channels
    ((1, 16, 6, 6), (4, 16, 1, 1), {}),  # 1x1: the input is the columns already
    ((1, 16, 7, 7), (4, 16, 3, 3), {"strides": [2, 2]}),
    ((1, 16, 6, 6), (4, 4, 3, 3), {"group": 4}),
    ((1, 16, 9), (4, 16, 3), {}),  # one spatial axis
    ((1, 16, 7, 7), (4, 16, 3, 3), {"pads": [1, 1, 1, 1]}),  # few positions: im2col
])
def test_tap_sums_only_where_they_apply(x_shape, w_shape, attrs):
    rng = np.random.default_rng(0)
    kernel = load_kernel("Conv")(attrs)
    x = rand(rng, x_shape)
    kernel(x, rand(rng, w_shape))
    assert kernel._plans[(x.shape, w_shape)][2] is None
