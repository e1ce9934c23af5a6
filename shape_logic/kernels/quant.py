"""What QuantizeLinear, DequantizeLinear and the QLinear*/Integer operators share: a scale
or zero point laid out against the tensor it applies to, and rounding into a quantized
type."""
from __future__ import annotations

import ml_dtypes
import numpy as np

from .base import Kernel

# the integer ranges of the quantized types (4- and 2-bit ones are ml_dtypes')
INT_RANGES = {np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max))
              for t in (np.uint8, np.int8, np.uint16, np.int16)}
INT_RANGES.update({np.dtype(ml_dtypes.uint4): (0, 15), np.dtype(ml_dtypes.int4): (-8, 7),
                   np.dtype(ml_dtypes.uint2): (0, 3), np.dtype(ml_dtypes.int2): (-2, 1)})
FLOAT8 = {np.dtype(t) for t in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e4m3fnuz,
                                ml_dtypes.float8_e5m2, ml_dtypes.float8_e5m2fnuz)}
FLOAT4 = np.dtype(ml_dtypes.float4_e2m1fn)


def laid_out(kernel: Kernel, value: np.ndarray | None, shape: tuple, axis: int,
             block_size: int = 0) -> np.ndarray | None:
    """`value` (a scale or zero point) broadcastable against a tensor of `shape`: one element
    is per tensor; a vector runs along `axis`; with block_size > 0, each element covers
    block_size steps of `axis` (the last block may be shorter)."""
    if value is None:
        return None
    if value.size == 1 and value.ndim <= 1:
        return value.reshape(())
    ax = kernel.axis(axis, len(shape))
    if block_size <= 0:
        if value.ndim != 1 or value.shape[0] != shape[ax]:
            raise kernel.fail(f"a scale or zero point of shape {list(value.shape)} does not run "
                              f"along axis {axis} of {list(shape)}")
        return value.reshape([shape[ax] if i == ax else 1 for i in range(len(shape))])
    want = tuple(-(-d // block_size) if i == ax else d for i, d in enumerate(shape))
    if value.shape != want:
        raise kernel.fail(f"blocks of {block_size} along axis {axis} of {list(shape)} need a "
                          f"scale or zero point of shape {list(want)}, got {list(value.shape)}")
    return np.repeat(value, block_size, axis=ax).take(range(shape[ax]), axis=ax)


def quantize(kernel: Kernel, q: np.ndarray, zero: np.ndarray | None, dtype: np.dtype,
             saturate: int = 1) -> np.ndarray:
    """q (x / scale, floats) rounded half to even, shifted by the zero point and saturated
    into the integer type `dtype`; float8 and float4 types take q (+ zero point) as a cast
    (float8 saturating unless saturate = 0)."""
    if dtype in INT_RANGES:
        lo, hi = INT_RANGES[dtype]
        qi = np.rint(q).astype(np.float64)
        if zero is not None:
            qi = qi + zero.astype(np.float64)
        return np.clip(qi, lo, hi).astype(dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        if dtype in FLOAT8:
            if saturate:
                info = ml_dtypes.finfo(dtype)
                q = np.clip(q, float(info.min), float(info.max))
            return q.astype(dtype)
        if dtype == FLOAT4:
            if zero is not None:
                q = q + zero.astype(np.float32)
            return q.astype(dtype)
    raise kernel.fail(f"{dtype} is not a quantized type")
