"""Conv cut into parts for the intra-op threads (kernels/conv_parts.py): every path, split
as finely as it goes (MIN_WORK 1, three threads), agrees with onnx's reference; whole
groups per part give the same bits as one part; the finishing (bias, a fused residual
Add, a fused Relu, a fused channel order) holds in every part (equal filters in parts:
test_conv_paths.py)."""
import numpy as np
import pytest

from shape_logic.kernels import load_kernel, workers

from .reference import check, rand

CASES = {
    # one group: rows of flat positions per part; RowPlan compact / cut, TapPlan
    "3x3 same": ((1, 5, 9, 7), (6, 5, 3, 3), {"pads": [1, 1, 1, 1]}),
    "3x3 valid": ((2, 4, 8, 9), (3, 4, 3, 3), {}),
    "strided padded": ((1, 3, 11, 10), (4, 3, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),
    "1x1": ((2, 6, 5, 7), (4, 6, 1, 1), {}),
    "1x1 few positions": ((1, 6, 2, 3), (24, 6, 1, 1), {}),  # filters per part
    "3x3 few positions": ((2, 5, 3, 3), (24, 5, 3, 3), {"pads": [1, 1, 1, 1]}),  # shared
    "strided few positions": ((1, 4, 5, 5), (16, 4, 3, 3), {"strides": [2, 2]}),
    "1x1 strided": ((1, 5, 6, 7), (20, 5, 1, 1), {"strides": [2, 3]}),
    "1-D dilated": ((1, 3, 17), (5, 3, 3), {"dilations": [2], "pads": [2, 2]}),
    # whole groups per part
    "grouped 1x1": ((1, 12, 6, 5), (8, 3, 1, 1), {"group": 4}),
    "grouped 3x3": ((2, 6, 7, 8), (9, 2, 3, 3), {"group": 3, "pads": [1, 0, 2, 1]}),
    "depthwise across": ((1, 8, 6, 6), (8, 1, 3, 3), {"group": 8, "pads": [1, 1, 1, 1]}),
    "depthwise strided": ((1, 7, 9, 9), (14, 1, 3, 3), {"group": 7, "strides": [2, 2],
                                                          "pads": [1, 1, 1, 1]}),
}


@pytest.fixture
def split_finely(monkeypatch):
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    with workers.threads(3):
        yield


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_parts_agree_with_the_reference(split_finely, case, bias):
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(len(case))
    b = rand(rng, w_shape[:1]) if bias else None
    check("Conv", [rand(rng, x_shape), rand(rng, w_shape), b], attrs)


def run_conv(attrs, x, w, b, addend=None, relu=False, order=None, threads=1):
    kernel = load_kernel("Conv")(attrs)
    kernel.relu = relu
    kernel.order = order
    if addend is not None:
        kernel.n_inputs = (2, 4)
    with workers.threads(threads):
        return kernel(x, w, b, addend)[0]


def expected(attrs, x, w, b, addend=None, relu=False, order=None):
    (y,) = load_kernel("Conv")(attrs)(x, w, b)
    if order is not None:
        y = y[:, np.argsort(order)]  # filter ch lands at channel order[ch]
    if addend is not None:
        y = y + addend
    return np.maximum(y, 0) if relu else y


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("order_kind", [None, "spaced", "any"])
def test_finishing_in_every_part(monkeypatch, case, order_kind):
    """Bias, a residual addend and a Relu, in the result's (fused) channel order."""
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(7)
    x, w, b = rand(rng, x_shape), rand(rng, w_shape), rand(rng, w_shape[:1])
    m, group = w_shape[0], attrs.get("group", 1)
    order = None
    if order_kind == "spaced":  # ShuffleNet's: row r of group q at channel q + G * r
        order = list(np.arange(m).reshape(group, m // group).T.reshape(-1).argsort())
    elif order_kind == "any":
        order = list(np.random.default_rng(1).permutation(m))
    want_shape = expected(attrs, x, w, b).shape
    addend = rand(rng, want_shape)
    want = expected(attrs, x, w, b, addend, True, order)
    one = run_conv(attrs, x, w, b, addend, True, order)
    np.testing.assert_allclose(one, want, rtol=1e-5, atol=1e-5)
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    many = run_conv(attrs, x, w, b, addend, True, order, threads=3)
    np.testing.assert_allclose(many, want, rtol=1e-5, atol=1e-5)
    if group > 1:  # whole groups: each group's products are the same calls
        np.testing.assert_array_equal(many, one)


@pytest.mark.parametrize("case", ["strided padded", "3x3 valid", "1x1 strided",
                                  "depthwise strided", "grouped 3x3", "1-D dilated"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("add", [True, False])
@pytest.mark.parametrize("relu", [True, False])
@pytest.mark.parametrize("threads", [1, 3])
def test_each_finishing_alone_reads_the_cut(monkeypatch, case, bias, add, relu, threads):
    """A result cut out of a wider grid: the first finishing operation (or a copy when
    there is none) reads the cut itself, whichever of bias, addend and Relu there are."""
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(11)
    x, w = rand(rng, x_shape), rand(rng, w_shape)
    b = rand(rng, w_shape[:1]) if bias else None
    addend = rand(rng, expected(attrs, x, w, b).shape) if add else None
    want = expected(attrs, x, w, b, addend, relu)
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    got = run_conv(attrs, x, w, b, addend, relu, threads=threads)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", ["1x1 few positions", "3x3 few positions",
                                  "strided few positions"])
@pytest.mark.parametrize("add", [True, False])
def test_equal_filters_split_by_filters_are_finished_in_parts(monkeypatch, case, add):
    """Parts that split the filters of a call with equal filters (onnx's light models:
    every filter of a layer alike): the repeats are copied after every part's products
    and finished after the copies, so a repeat's channel is its original's products plus
    its own bias and addend (a copy of a finished row would carry the original's), then
    the Relu; without an addend the repeats' bits are their original's."""
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(5)
    x, w, b = rand(rng, x_shape), rand(rng, w_shape), rand(rng, w_shape[:1])
    m = w_shape[0]
    w[1:] = w[0]  # every filter alike, as in the light models, biases apart but two
    b[m - 1] = b[0]
    b[m // 2] = b[0]
    addend = rand(rng, expected(attrs, x, w, b).shape) if add else None
    want = expected(attrs, x, w, b, addend, True)
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    for _ in range(5):  # (the parts may be taken in any order)
        got = run_conv(attrs, x, w, b, addend, True, threads=3)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        if not add:
            assert np.array_equal(got[:, m - 1], got[:, 0])
            assert np.array_equal(got[:, m // 2], got[:, 0])
