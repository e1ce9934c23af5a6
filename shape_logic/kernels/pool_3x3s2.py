"""2-D pools with 3x3 windows and stride 2 (the max pools of SqueezeNet, ShuffleNet,
ResNet, the Inceptions...): rows first, then columns, a chunk of planes at a time.

For each chunk of planes (about CHUNK_BYTES of input):

- rows: the output rows from strided row views of the input (rows 2i - b, 2i - b + 1,
  2i - b + 2 with b rows of padding before, 0 or 1), two operations writing a buffer of
  half the input's rows: the input is read once and the data halves at once;
- columns: two operations over that buffer as one flat run (a window running into the
  next row is computed and never read), then the stride-2 columns picked out in one copy.

Windows with a tap in the padding (the first with b = 1, the last when the end is
padded: Inception's pads [0, 0, 1, 1] on 112 and 56) are reduced again from the rows or
columns they see, in the same order.

The chunk's row buffer stays in the L2 cache for the column pass. The whole-array
passes it replaces (`pooling.pairs` on each axis: two passes over the input, a copy of
half of it, then the same over that half) were memory-bound: on this 2-core VM
(AVX-512 Xeon, 2 MiB L2 a core), hot, min of 100: [64, 111, 111] 850-1070 -> 480 us,
[64, 112, 112] pad 1 980 -> 525, [24, 112, 112] pad 1 247 -> 187, [128, 55, 55] 340 ->
250; [256, 27, 27] the same (124). Inputs within the L2 are faster by those passes (each
over one long run): [24, 56, 56] 65 vs 85 us, [136, 28, 28] 97 vs 116, [272, 14, 14]
64 vs 91 (`MIN_BYTES`). Each output is fn over the same elements as before, in the
same order (rows, then columns): the same bits as `pooling.pairs`, `flat_axis` and
`sliced_axis`, for max and for add (AveragePool).
"""
from __future__ import annotations

import numpy as np

from .Relu import zeros
from .scratch import scratch
from .spatial import clean_windows

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
    computes: per axis no padding before or one position, and every window starting in
    the input or that one position (the geometry's output sizes do)."""
    if x.ndim != 4 or tuple(kernel) != (3, 3) or tuple(strides) != (2, 2) or \
            tuple(dilations) != (1, 1) or x.nbytes < MIN_BYTES:
        return False
    return all(b in (0, 1) and n >= 3 and 1 <= o and 2 * (o - 1) - b <= n - 1
               for n, b, o in zip(x.shape[2:], begin, out))


def pool_3x3s2(x: np.ndarray, begin, out, fn, relu: bool = False) -> np.ndarray:
    """fn (np.maximum, np.add) over every 3x3 window at stride 2 of x [N, C, H, W] (with
    `fits`): the result [N, C, *out]. relu: then max(y, 0), float only (a Relu moved
    past a MaxPool, exec_rewrite.pool_after_relu), chunk by chunk while the chunk's
    output is in the cache (SqueezeNet's first pool, [64, 111, 111] with the Relu after,
    median of 200, alternated processes: hot 663-732 -> 624-647 us; after a cache flush
    the same, 717-746 / 725-757)."""
    n, c, h, w = x.shape
    oh, ow = out
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


def _edge(src, dst, taps, fn) -> None:
    """dst = fn over src's taps in order (one or two rows or columns in the input)."""
    if len(taps) == 1:
        np.copyto(dst, src(taps[0]))
        return
    fn(src(taps[0]), src(taps[1]), out=dst)
    for t in taps[2:]:
        fn(dst, src(t), out=dst)


def _edges(n: int, b: int, o: int) -> list:
    """[(window, its taps in [0, n))] for the edge windows of one axis."""
    lo, hi = clean_windows(n, 3, 2, 1, b, o)
    return [(i, [t for t in range(2 * i - b, 2 * i - b + 3) if 0 <= t < n])
            for i in [*range(lo), *range(hi, o)]]


def _rows(v, r, b, fn) -> None:
    """r [P, o, W] = fn over rows 2i - b .. 2i - b + 2 (those in v [P, H, W])."""
    n, o = v.shape[1], r.shape[1]
    lo, hi = clean_windows(n, 3, 2, 1, b, o)
    if lo < hi:
        s = 2 * lo - b
        e = s + 2 * (hi - lo - 1) + 1  # one past the last window's first row
        fn(v[:, s:e:2], v[:, s + 1:e + 1:2], out=r[:, lo:hi])
        fn(r[:, lo:hi], v[:, s + 2:e + 2:2], out=r[:, lo:hi])
    for i, taps in _edges(n, b, o):
        _edge(lambda t: v[:, t], r[:, i], taps, fn)


def _columns(r, y, full, b, fn) -> None:
    """y [P, o, o'] = fn over the 3-column windows at stride 2 of r [P, o, W]: every
    window of stride 1 over r as one flat run (into `full`), then every second one."""
    w, ow = r.shape[2], y.shape[2]
    lo, hi = clean_windows(w, 3, 2, 1, b, ow)
    if lo < hi:
        f = r.reshape(-1)
        s = f.size - 2
        # full[q] = fn(f[q], f[q + 1], f[q + 2]): the window starting at column q
        fn(f[:s], f[1:s + 1], out=full[:s])
        fn(full[:s], f[2:], out=full[:s])
        c0 = 2 * lo - b
        np.copyto(y[:, :, lo:hi], full.reshape(r.shape)[:, :, c0:c0 + 2 * (hi - lo - 1) + 1:2])
    for j, taps in _edges(w, b, ow):
        _edge(lambda t: r[:, :, t], y[:, :, j], taps, fn)
