"""2-D 3x3/2 pools (kernels/pool_3x3s2.py: rows then columns, by chunks of planes) vs
onnx's reference evaluator and, bit for bit, the whole-array passes (`pooling.pairs`,
`flat_axis`, `sliced_axis`) they replace; odd and even sizes, pads before and after,
ceil_mode, chunk boundaries."""

import numpy as np
import pytest

from shape_logic.kernels import pool_3x3s2 as module
from shape_logic.kernels import pooling

from .reference import check, rand

SIZES = [(3, 3), (4, 4), (5, 8), (8, 5), (9, 9), (12, 13), (27, 27), (28, 28), (55, 56)]


def _used(monkeypatch):
    used = []
    monkeypatch.setattr(pooling, "pool_3x3s2",
                        lambda *a, f=module.pool_3x3s2: used.append(1) or f(*a))
    return used


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
@pytest.mark.parametrize("chunk", [module.CHUNK_BYTES, 1, 300])
def test_against_the_reference(monkeypatch, size, op, chunk):
    """Odd sizes without padding, even ones with one position before (pads or
    SAME_UPPER/LOWER as onnx works them out), ceil_mode where it changes nothing;
    chunks of one plane, of a few, or all of them."""
    monkeypatch.setattr(module, "CHUNK_BYTES", chunk)
    monkeypatch.setattr(module, "MIN_BYTES", 0)
    used = _used(monkeypatch)
    rng = np.random.default_rng(sum(size))
    x = rand(rng, (2, 5, *size))
    pads = [1 - n % 2 for n in size] + [0, 0]
    attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": pads}
    if op == "AveragePool":
        for include in (0, 1):
            check(op, [x], {**attrs, "count_include_pad": include}, rtol=1e-5)
    else:
        check(op, [x], attrs, rtol=0, atol=0)
        check(op, [x], {**attrs, "ceil_mode": 1}, rtol=0, atol=0)
    assert used or (op, size) == ("AveragePool", (3, 3))  # (one window: plane_means)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("fn", [np.maximum, np.add])
def test_same_bits_as_pairs(monkeypatch, size, fn):
    """The same operations in the same order as `pairs` on each axis: the same bits."""
    monkeypatch.setattr(module, "CHUNK_BYTES", 7 * size[0] * size[1])
    rng = np.random.default_rng(7)
    x = rand(rng, (3, 4, *size))
    begin = [1 - n % 2 for n in size]
    want = pooling.pairs(pooling.pairs(x, 2, fn, begin[0]), 3, fn, begin[1])
    got = module.pool_3x3s2(x, begin, [n // 2 for n in size], fn)
    assert got.shape == want.shape
    assert np.array_equal(got, want)


@pytest.mark.parametrize("size", [(3, 3), (4, 5), (8, 8), (9, 9), (12, 13), (28, 27), (56, 56)])
@pytest.mark.parametrize("pads", [[0, 0, 0, 0], [0, 0, 1, 1], [1, 1, 1, 1], [1, 0, 0, 1],
                                  [0, 1, 1, 0]])
@pytest.mark.parametrize("ceil_mode", [0, 1])
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_same_bits_as_the_general_path(monkeypatch, size, pads, ceil_mode, op):
    """Every geometry this path takes (pads of 0 or 1 before, any after, ceil_mode): the
    same bits as the general path, and onnx's reference."""
    from shape_logic.kernels import load_kernel

    x = rand(np.random.default_rng(sum(size) + sum(pads)), (2, 3, *size))
    attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": pads, "ceil_mode": ceil_mode}
    if op == "AveragePool":
        attrs["count_include_pad"] = sum(pads) % 2
    monkeypatch.setattr(module, "MIN_BYTES", 1 << 60)
    want = load_kernel(op)(attrs, opset=18, n_outputs=1, domain="")(x)[0]
    monkeypatch.setattr(module, "MIN_BYTES", 0)
    monkeypatch.setattr(module, "CHUNK_BYTES", 2 * size[0] * size[1] * 4)
    used = _used(monkeypatch)
    got = check(op, [x], attrs, rtol=1e-5 if op == "AveragePool" else 0, atol=1e-6)
    if got is not None:
        assert np.array_equal(got[0], want)
    whole = op == "AveragePool" and want.shape[2:] == (1, 1)  # (plane_means)
    assert used or whole or not module.fits(x, [3, 3], [2, 2], [1, 1], pads[:2],
                                            want.shape[2:])


@pytest.mark.parametrize("shape,attrs", [
    ((1, 2, 9, 9), {"pads": [2, 2, 2, 2]}),  # two positions of padding before
    ((1, 2, 9, 9), {"dilations": [2, 2]}),
    ((1, 2, 9, 9, 9), {}),  # 3-D
])
def test_other_geometries_take_the_general_path(monkeypatch, shape, attrs):
    monkeypatch.setattr(module, "MIN_BYTES", 0)
    used = _used(monkeypatch)
    x = rand(np.random.default_rng(1), shape)
    kernel = {"kernel_shape": [3] * (len(shape) - 2), "strides": [2] * (len(shape) - 2)}
    check("MaxPool", [x], {**kernel, **attrs}, rtol=0, atol=0)
    assert not used


def test_small_inputs_take_the_general_path(monkeypatch):
    """Below MIN_BYTES: the whole-array passes (faster from the L2)."""
    used = _used(monkeypatch)
    x = rand(np.random.default_rng(2), (1, 4, 9, 9))
    check("MaxPool", [x], {"kernel_shape": [3, 3], "strides": [2, 2]}, rtol=0, atol=0)
    assert not used
    monkeypatch.setattr(module, "MIN_BYTES", x.nbytes)
    check("MaxPool", [x], {"kernel_shape": [3, 3], "strides": [2, 2]}, rtol=0, atol=0)
    assert used


@pytest.mark.parametrize("size", [(9, 9), (12, 13), (28, 28)])
def test_relu_by_chunks(monkeypatch, size):
    """A Relu moved past the MaxPool (`relu`), applied chunk by chunk: max(pool, 0)."""
    from shape_logic.kernels import MaxPool, load_kernel

    monkeypatch.setattr(module, "MIN_BYTES", 0)
    monkeypatch.setattr(module, "CHUNK_BYTES", 3 * size[0] * size[1] * 4)
    fused_calls = []
    monkeypatch.setattr(MaxPool, "pool_3x3s2", lambda *a, f=module.pool_3x3s2, **k:
                        fused_calls.append(k) or f(*a, **k))
    x = rand(np.random.default_rng(3), (2, 5, *size))
    x[0, 0] = np.nan  # NaN stays NaN, as with a Relu after the pool
    attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1 - n % 2 for n in size] + [0, 0]}
    plain = load_kernel("MaxPool")(attrs, opset=18, n_outputs=1, domain="")
    fused = load_kernel("MaxPool")(attrs, opset=18, n_outputs=1, domain="")
    fused.relu = True
    want = np.maximum(plain(x)[0], 0)
    got = fused(x)[0]
    assert np.array_equal(got, want, equal_nan=True)
    assert np.isnan(got[0, 0]).all()
    assert fused_calls == [{"relu": True}]
