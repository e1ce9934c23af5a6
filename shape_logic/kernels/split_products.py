"""A 2-D product cut into blocks of output columns for the intra-op threads (workers.py).

    matmul_parts(a, b)   # a [M, K] @ b [K, N], as np.matmul, on the threads when it pays

A fully connected layer over one image is a matrix-vector product: BLAS reads the whole
weight matrix once for a few multiply-adds per element, so one thread is bound by how
fast one core can read memory. Two threads reading half the columns each read it ~1.5x
as fast here (VGG19's fc6, [1, 25088] @ [25088, 4096], 410 MB of weights: ~31 -> ~22 ms
on the 2-core VM, loaded). Each block is its own product into its own columns of the result:
an output element is summed as in one product (its column's dot product, whole).
"""
from __future__ import annotations

import numpy as np

from . import workers
from .conv_parts import spread

# a product is split only from this many multiply-adds (and as workers.worth says): in
# a loaded VM's measurements (interleaved, median of 41) a matrix-vector product with
# 16.8 M (fc7, [1, 4096] @ [4096, 4096], ~2-3 ms) was slower in two parts, its worker
# woken late, while 37.7 M (AlexNet's fc6) took 12.9 -> 11.3 ms, 75.5 M (ZFNet's fc6)
# 21.3 -> 17.7 and 102.8 M (VGG19's fc6) 30.7 -> 21.8
MIN_PRODUCT = 1 << 25

# blocks of output columns are cut at multiples of this (whole cache lines of the result
# and BLAS's column blocks of a float32 product)
COLUMN_UNIT = 64


def matmul_parts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a [M, K] @ b [K, N] (2-D, one dtype), its columns split over the threads when the
    multiply-adds are work enough (MIN_PRODUCT, workers.worth)."""
    m, k = a.shape
    n = b.shape[1]
    work = m * k * n
    parts = workers.worth(work) if work >= MIN_PRODUCT and a.dtype == b.dtype and \
        a.dtype.kind == "f" else 1
    bounds = spread(n, parts, COLUMN_UNIT)
    if len(bounds) <= 2:
        return a @ b
    out = np.empty((m, n), np.result_type(a, b))
    workers.parallel(lambda p: np.matmul(a, b[:, bounds[p]:bounds[p + 1]],
                                         out=out[:, bounds[p]:bounds[p + 1]]),
                     len(bounds) - 1)
    return out
