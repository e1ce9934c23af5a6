"""2-D pools with 3x3 windows and stride 2 (the max pools of SqueezeNet, ShuffleNet,
ResNet, the Inceptions...): rows first, then columns, a chunk of planes at a time.

For each chunk of planes (about CHUNK_BYTES of input):

- rows: the output rows from strided row views of the input (rows 2i, 2i + 1, 2i + 2,
  or 2i - 1, 2i, 2i + 1 with one row of padding before), two operations writing a
  buffer of half the input's rows: the input is read once and the data halves at once;
- columns: two operations over that buffer as one flat run (a window running into the
  next row is computed and never read), then the stride-2 columns picked out in one copy.

The chunk's row buffer stays in the L2 cache for the column pass. The whole-array
passes it replaces (`pooling.pairs` on each axis: two passes over the input, a copy of
half of it, then the same over that half) were memory-bound: on this 2-core VM
(AVX-512 Xeon, 2 MiB L2 a core), hot, min of 100: [64, 111, 111] 850-1070 -> 480 us,
[64, 112, 112] pad 1 980 -> 525, [24, 112, 112] pad 1 247 -> 187, [128, 55, 55] 340 ->
250; [256, 27, 27] the same (124). Inputs within the L2 are faster by those passes (each
over one long run): [24, 56, 56] 65 vs 85 us, [136, 28, 28] 97 vs 116, [272, 14, 14]
64 vs 91 (`MIN_BYTES`). Each output is fn over the same elements as before:
the same bits for max; for add (AveragePool), the same order of additions (rows, then
columns) as `pairs`.
"""
from __future__ import annotations

import numpy as np

from .Relu import zeros
from .scratch import scratch

# the input planes of one chunk, at most (whole planes; at least one): the row buffer
# (half of it) then stays in the L2 for the column pass. Chunks of [64, 111, 111] of 4,
# 8, 16, 32 planes (190 KB to 1.6 MB): 539, 491, 484, 542 us against 657 in one go
CHUNK_BYTES = 512 << 10
# smaller inputs (read from the L2, where the producing node left them) keep the
# whole-array passes over long runs (`pooling.pairs`): the strided row views' short
# rows cost more there (see the module's figures)
MIN_BYTES = 1 << 20


def fits(x, kernel, strides, dilations, begin, out) -> bool:
    """Whether a pool of x [N, C, H, W] of at least MIN_BYTES is a 3x3/2 pool this module
    computes: per axis either no padding before on an odd length or one position on an
    even length, and n // 2 outputs (so no window runs past the input's end)."""
    if x.ndim != 4 or tuple(kernel) != (3, 3) or tuple(strides) != (2, 2) or \
            tuple(dilations) != (1, 1) or x.nbytes < MIN_BYTES:
        return False
    return all((b, n % 2, o) in ((1, 0, n // 2), (0, 1, n // 2)) and n >= 3
               for n, b, o in zip(x.shape[2:], begin, out))


def pool_3x3s2(x: np.ndarray, begin, fn, relu: bool = False) -> np.ndarray:
    """fn (np.maximum, np.add) over every 3x3 window at stride 2 of x [N, C, H, W] (with
    `fits`): the result [N, C, H // 2, W // 2]. relu: then max(y, 0), float only (a
    Relu moved past a MaxPool, exec_rewrite.pool_after_relu), chunk by chunk while the
    chunk's output is in the cache (SqueezeNet's first pool, [64, 111, 111] with the
    Relu after, median of 200, alternated processes: hot 663-732 -> 624-647 us; after a
    cache flush the same, 717-746 / 725-757)."""
    n, c, h, w = x.shape
    oh, ow = h // 2, w // 2
    planes = np.ascontiguousarray(x).reshape(n * c, h, w)
    y = np.empty((n * c, oh, ow), x.dtype)
    step = max(1, CHUNK_BYTES // (h * w * x.itemsize))
    rows = scratch("pool rows", (min(step, n * c), oh, w), x.dtype)
    full = scratch("pool", (min(step, n * c) * oh * w,), x.dtype)
    for p in range(0, n * c, step):  # (a handful of chunks)
        q = min(n * c, p + step)
        r = rows[:q - p]
        _rows(planes[p:q], r, begin[0], fn)
        _columns(r, y[p:q], full[:r.size], begin[1], fn)
        if relu:
            flat = y[p:q].reshape(-1)
            np.maximum(flat, zeros(flat.size, y.dtype), out=flat)
    return y.reshape(n, c, oh, ow)


def _rows(v, r, b, fn) -> None:
    """r [P, o, W] = fn over rows (2i + b', 2i + b' + 1, 2i + b' + 2) of v [P, H, W]."""
    o = r.shape[1]
    if b == 0:
        fn(v[:, 0:2 * o - 1:2], v[:, 1:2 * o:2], out=r)
        fn(r, v[:, 2:2 * o + 1:2], out=r)
        return
    # window i >= 1 is rows 2i - 1 .. 2i + 1; window 0 sees rows 0 and 1 (the padding)
    if o > 1:
        fn(v[:, 1:2 * o - 2:2], v[:, 2:2 * o - 1:2], out=r[:, 1:])
        fn(r[:, 1:], v[:, 3:2 * o:2], out=r[:, 1:])
    fn(v[:, 0], v[:, 1], out=r[:, 0])


def _columns(r, y, full, b, fn) -> None:
    """y [P, o, o'] = fn over the 3-column windows at stride 2 of r [P, o, W]: every
    window of stride 1 over r as one flat run (into `full`), then every second one."""
    ow = y.shape[2]
    f = r.reshape(-1)
    s = f.size - 2
    # full[q + b] = fn(f[q], f[q + 1], f[q + 2]): the window at column q (b = 0) or
    # centred on column q + 1 (b = 1)
    dst = full[b:b + s]
    fn(f[:s], f[1:s + 1], out=dst)
    fn(dst, f[2:], out=dst)
    grid = full.reshape(r.shape)
    if b == 0:
        np.copyto(y, grid[:, :, 0:2 * ow - 1:2])
        return
    if ow > 1:  # window j >= 1 is centred on column 2j
        np.copyto(y[:, :, 1:], grid[:, :, 2:2 * ow - 1:2])
    fn(r[:, :, 0], r[:, :, 1], out=y[:, :, 0])
