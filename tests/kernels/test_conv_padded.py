"""Products over padded columns (kernels/blas.py padded_columns, conv_parts.product): the
column matrices get extra zero columns whose products are thrown away. Every path of
test_conv_threads' cases, padded by more than any rule would, agrees with onnx's
reference, in one part and in parts; the rule itself for either kernel width."""
import numpy as np
import pytest

from shape_logic.kernels import blas, conv_parts, workers

from .reference import check, rand
from .test_conv_threads import CASES


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("extra", [1, 13])
def test_padded_columns_agree_with_the_reference(monkeypatch, case, threads, extra):
    monkeypatch.setattr(conv_parts, "padded_columns", lambda n, dtype=None: n + extra)
    monkeypatch.setattr(workers, "MIN_WORK", 1)
    x_shape, w_shape, attrs = CASES[case]
    rng = np.random.default_rng(len(case) + extra)
    with workers.threads(threads):
        for b in (rand(rng, w_shape[:1]), None):
            check("Conv", [rand(rng, x_shape), rand(rng, w_shape), b], attrs)


@pytest.mark.parametrize("unit", [8, 16])
def test_padded_columns_rule(monkeypatch, unit):
    """Up to a multiple of 8 when 5-7 are left over, whatever the kernels' width."""
    monkeypatch.setattr(blas, "column_unit", lambda: unit)
    padded = {49: 49, 52: 52, 53: 56, 55: 56, 57: 57, 60: 60, 63: 64, 169: 169, 25: 25,
              251: 251, 253: 256, 256: 256, 3565: 3565}
    assert {n: blas.padded_columns(n) for n in padded} == padded
    assert {n: blas.padded_columns(n, np.dtype(np.float32)) for n in padded} == padded
    assert all(blas.padded_columns(n, np.dtype(np.float64)) == n for n in padded)


def test_column_unit_names_a_width():
    assert blas.column_unit() in (8, 16)
