"""What the random operators share: a generator, seeded by the `seed` attribute where the
node gives one (the same draws on every run), else fresh; and the output type from
`dtype`. The values are NumPy's draws, not another runtime's: only their shapes, types
and distributions are the operator's."""
from __future__ import annotations

import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype


def generator(seed) -> np.random.Generator:
    return np.random.default_rng(None if seed is None else int(np.float32(seed).view(np.uint32)))


def out_dtype(kernel: Kernel, dtype, like: np.dtype | None = None) -> np.dtype:
    if dtype is None:
        if like is None:
            raise kernel.fail("no dtype")
        return like
    try:
        return numpy_dtype(dtype, kernel.op)
    except ValueError as e:
        raise kernel.fail(str(e)) from None


def float_out(kernel: Kernel, dtype: np.dtype) -> np.dtype:
    if dtype.kind != "f" and dtype.name != "bfloat16":
        raise kernel.fail(f"draws floats, not {dtype}")
    return dtype
