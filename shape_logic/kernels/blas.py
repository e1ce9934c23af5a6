"""How many threads NumPy's BLAS (OpenBLAS) uses while a graph runs.

One by default: a graph node's products are small enough that OpenBLAS's threads cost
more than they give (measured on onnx's light models: single-threaded runs were 1.5-6x
faster in wall time on a loaded 2-core machine, where OpenBLAS's idle threads spin and
take CPU from the thread doing the work).  `threadpoolctl` finds and sets the BLAS
library NumPy loaded; the previous setting comes back when the run ends.
"""
from __future__ import annotations

import contextlib
from functools import cache

import numpy as np


@cache
def _controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def blas_threads(threads: int | None):
    """A context running BLAS on `threads` threads (None: as configured, untouched)."""
    if threads is None:
        return contextlib.nullcontext()
    return _controller().limit(limits=threads, user_api="blas")


# OpenBLAS's float32 products run through our products' columns (the output positions of
# a convolution) 16 at a time with its AVX-512 kernels, 8 with its AVX2 ones (Haswell,
# Zen); the columns left over go through narrower kernels, each another pass over the
# weights, so a product over 55 or 63 columns takes longer than over 56 or 64 (one
# thread, [512, 4609] weights: SkylakeX 55 -> 56 columns 2501 -> 2071 us, 63 -> 64 2714
# -> 1991; Haswell 55 -> 56 3819 -> 3342, 63 -> 64 3663 -> 3274). The targets (as
# threadpoolctl reports them) whose kernels take 16 columns at a time, ~1.7x as fast as
# the AVX2 ones on our products (workers.min_work):
WIDE_KERNELS = frozenset({"skylakex", "cooperlake", "sapphirerapids"})
# only products over fewer columns are padded: beyond, the leftover is a small part of
# the work and the copy of the result out of the padded one costs as much
PAD_BELOW = 256


@cache
def column_unit() -> int:
    """16 when NumPy's BLAS is OpenBLAS with AVX-512 kernels (WIDE_KERNELS), else 8: read
    once, when first asked (OpenBLAS picks its kernels when it loads)."""
    try:
        libs = [i for i in _controller().info() if i.get("user_api") == "blas"]
    except Exception:  # noqa: BLE001  (no threadpoolctl's view of the BLAS: the default)
        libs = []
    arch = str(libs[0].get("architecture") or "").lower() if libs else ""
    return 16 if arch in WIDE_KERNELS else 8


def padded_columns(n: int, dtype=None) -> int:
    """How many columns a float32 product over `n` should compute (n, or more: the extra
    ones are thrown away; other dtypes keep n: not measured, or not BLAS's): up to a
    multiple of 8 when 5-7 are left over, with either kernel width ([512, 4609] weights,
    55 -> 56 columns: 2501 -> 2071 us SkylakeX, 3819 -> 3342 Haswell). 1-4 left over
    cost less than the columns added (SkylakeX [512, 4608], 49 -> 56: 1540 -> 1870 us).
    With 16-wide kernels a product with 9-12 left over of 16 is also ~10% faster padded
    to 16, hot ([1000, 513] 169 -> 176 columns: 1024 -> 928 us), but not in the models
    (SqueezeNet's 169-column convolutions 1-3% slower, ZFNet's 108 and 25 1-3%: the
    weights come from memory, and the copy out of the padded result): not done."""
    if n >= PAD_BELOW or (dtype is not None and dtype != np.float32) or n % 8 < 5:
        return n
    return n + 8 - n % 8
