"""Gemm's product cut into blocks of output columns for the intra-op threads
(kernels/split_products.py): split as finely as it goes (MIN_WORK 1, three threads) it
agrees with one product (the bits of it for one row times B transposed, a fully
connected layer's over one image; otherwise BLAS may sum a narrower block in another
order: within rounding), and repeats its bits; with C and alpha; integer products and
work too small to pay stay whole."""
import numpy as np
import pytest

from shape_logic.kernels import load_kernel, split_products, workers
from shape_logic.kernels.split_products import matmul_parts

from .reference import check, rand


@pytest.fixture
def split_finely(monkeypatch):
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    monkeypatch.setattr(split_products, "MIN_PRODUCT", 1)
    with workers.threads(3):
        yield


@pytest.mark.parametrize("shape", [(1, 300, 700), (3, 64, 129), (5, 17, 64), (2, 8, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_parts_agree_with_one_product(split_finely, shape, dtype):
    m, k, n = shape
    rng = np.random.default_rng(m * k + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    for b in (rng.standard_normal((n, k)).astype(dtype).T,  # (Gemm's transB: a view)
              rng.standard_normal((k, n)).astype(dtype)):
        y = matmul_parts(a, b)
        if m == 1 and not b.flags.c_contiguous:
            assert np.array_equal(y, a @ b)
        np.testing.assert_allclose(y, a @ b, rtol=0, atol=k * np.finfo(dtype).eps * 8)
        assert np.array_equal(matmul_parts(a, b), y)  # (fixed by the shapes and threads)


def test_gemm_in_parts_agrees_with_the_reference(split_finely):
    rng = np.random.default_rng(4)
    check("Gemm", [rand(rng, (2, 70)), rand(rng, (200, 70)), rand(rng, (200,))],
          {"transB": 1, "alpha": 0.5})
    check("Gemm", [rand(rng, (70, 3)), rand(rng, (70, 130))], {"transA": 1})


def test_small_or_integer_products_stay_whole(monkeypatch):
    calls = []
    monkeypatch.setattr(workers, "parallel", lambda part, n: calls.append(n))
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    a, b = np.ones((1, 8), np.int64), np.ones((8, 512), np.int64)
    with workers.threads(2):
        assert matmul_parts(a, b).tolist() == [[8] * 512]  # integers: NumPy's own loop
        matmul_parts(a.astype(np.float32), b.astype(np.float32))  # below MIN_PRODUCT
    assert calls == []


def test_gemm_kernel_splits_a_large_product(split_finely, monkeypatch):
    seen = []
    run = workers.parallel
    monkeypatch.setattr(workers, "parallel", lambda part, n: (seen.append(n), run(part, n)))
    a, b = np.ones((1, 16), np.float32), np.ones((16, 256), np.float32)
    (y,) = load_kernel("Gemm")({})(a, b)
    assert seen == [3] and y.tolist() == [[16.0] * 256]
