"""onnxruntime's NCHWc layout (domain com.microsoft.nchwc, made on x86 by its
NchwcTransformer at ORT_ENABLE_ALL): a tensor of logical shape [N, C, H, W], C padded to a
multiple of MLAS's block b, holds its elements as [N, C/b, H, W, b] - our arrays keep that
memory under the logical shape, as onnxruntime's do, so that the ONNX nodes between (Add,
Relu, a Reshape to [0, C/b, 0, 0, b]) see the same values. A Conv's weights were reordered
by MLAS: OIHWBiBo ([O/b, I/b, kh, kw, bi, bo]) for a blocked input, OIHWBo ([O/b, I, kh,
kw, bo]) for a plain (NCHW) input of fewer than b channels and for depthwise filters.

The block is not in the model: it is MLAS's on the machine that optimized it (8; 16 with
AVX512F or ARM64 NEON); `BLOCK` sets it (a test learns it from onnxruntime), else it is
this machine's. Each kernel refuses the shapes that do not fit it, as onnxruntime does."""
from __future__ import annotations

import platform
from functools import cache

import numpy as np

NCHWC = "com.microsoft.nchwc"
BLOCK: int | None = None  # the block size; None: this machine's (machine_block)


@cache
def machine_block() -> int | None:
    """MLAS's NCHWc block on this machine: 16 with AVX512F (x86-64) or on ARM64 (NEON), 8
    on other x86-64; None where it cannot tell (no NCHWc there: onnxruntime makes none)."""
    arch = platform.machine().lower()
    if arch in ("aarch64", "arm64"):
        return 16
    if arch not in ("x86_64", "amd64", "i686", "x86"):
        return None
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        return None
    return 16 if " avx512f" in flags else 8


def block_size(kernel) -> int:
    b = BLOCK or machine_block()
    if b is None:
        raise kernel.fail("the NCHWc block size of this machine is unknown (set "
                          "shape_logic.kernels.nchwc.BLOCK)")
    return b


def check_blocked(kernel, x, b, what="input"):
    if x.ndim != 4 or x.shape[1] % b:
        raise kernel.fail(f"{what} {list(x.shape)} is no NCHWc tensor of block {b} (rank 4, "
                          f"channels a multiple of {b})")


def unblock(x: np.ndarray, b: int) -> np.ndarray:
    """The plain NCHW array of an NCHWc one (its memory [N, C/b, H, W, b])."""
    n, c, h, w = x.shape
    blocked = np.ascontiguousarray(x).reshape(n, c // b, h, w, b)
    return np.ascontiguousarray(blocked.transpose(0, 1, 4, 2, 3)).reshape(n, c, h, w)


def block(y: np.ndarray, b: int) -> np.ndarray:
    """The NCHWc array (memory [N, C/b, H, W, b]) of a plain NCHW one, C a multiple of b."""
    n, c, h, w = y.shape
    parts = y.reshape(n, c // b, b, h, w).transpose(0, 1, 3, 4, 2)
    return np.ascontiguousarray(parts).reshape(n, c, h, w)


def filters_bibo(w: np.ndarray, b: int) -> np.ndarray:
    """Plain OIHW filters from MLAS's OIHWBiBo ([O/b, I/b, kh, kw, bi, bo])."""
    o, i, kh, kw = w.shape
    r = w.reshape(o // b, i // b, kh, kw, b, b).transpose(0, 5, 1, 4, 2, 3)
    return np.ascontiguousarray(r).reshape(o, i, kh, kw)


def filters_bo(w: np.ndarray, b: int) -> np.ndarray:
    """Plain OIHW filters from MLAS's OIHWBo ([O/b, I, kh, kw, bo])."""
    o, i, kh, kw = w.shape
    r = w.reshape(o // b, i, kh, kw, b).transpose(0, 4, 1, 2, 3)
    return np.ascontiguousarray(r).reshape(o, i, kh, kw)
