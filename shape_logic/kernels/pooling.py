"""The pooling family: MaxPool, AveragePool and LpPool slide a window over the spatial
axes. A window is a box, so max and sum reduce it one axis at a time (separably): k1 + k2
vectorized operations per output instead of k1 * k2."""
from __future__ import annotations

import math

import numpy as np

from .base import REQUIRED, Kernel
from .pool_3x3s2 import fits, pool_3x3s2
from .scratch import scratch
from .spatial import clean_windows, geometry, kernel_offsets, offset_slices, pad_spatial


class Pool(Kernel):
    attrs = {"auto_pad": "NOTSET", "ceil_mode": 0, "dilations": None,
             "kernel_shape": REQUIRED, "pads": None, "strides": None}

    def setup(self, **attrs):
        self._geometry = {}  # input shape -> geometry (the attributes are the node's)

    def run(self, x, auto_pad="NOTSET", ceil_mode=0, dilations=None, kernel_shape=None,
            pads=None, strides=None, **extra):
        geo = self._geometry.get(x.shape)
        if geo is None:
            geo = geometry(self, x, kernel_shape, strides, dilations, pads, auto_pad,
                           ceil_mode)
            if len(self._geometry) > 64:  # shapes that keep changing: keep it small
                self._geometry.clear()
            self._geometry[x.shape] = geo
        return self.pool(x, *geo, **extra)

    @staticmethod
    def whole(x, kernel, dilations, begin, end, out) -> bool:
        """Whether the one window is the whole input (a global pool)."""
        return all(o == 1 for o in out) and not any(begin) and not any(end) \
            and list(kernel) == list(x.shape[2:]) and all(d == 1 for d in dilations)

    def pool(self, x, kernel, strides, dilations, begin, end, out, **extra):
        raise NotImplementedError


def plane_means(x: np.ndarray, weights: dict) -> np.ndarray:
    """The mean of each plane of x [N, C, ...] as [N, C, 1, ...]. float32/float64: one
    matrix-vector product of the planes [N*C, size] with a vector of 1 / size (BLAS;
    NumPy's mean reduces each short row on its own: squeezenet's [1000, 13, 13]
    61 -> 13 us, ResNet's [2048, 7, 7] 66 -> 11 us, hot). `weights`: the kernel's cache
    of those vectors, by (size, dtype)."""
    size = math.prod(x.shape[2:])
    if x.dtype not in (np.float32, np.float64) or size == 0 or x.size == 0:
        return np.mean(x, axis=tuple(range(2, x.ndim)), keepdims=True).astype(x.dtype)
    key = (size, x.dtype)
    vector = weights.get(key)
    if vector is None:
        vector = weights[key] = np.full(size, 1 / size, x.dtype)
    planes = np.ascontiguousarray(x).reshape(-1, size)
    return np.matmul(planes, vector).reshape(x.shape[:2] + (1,) * (x.ndim - 2))


def window_counts(sizes, kernel, strides, dilations, begin, out, lo_pad, hi_pad):
    """How many positions of each window fall in [-lo_pad, n + hi_pad) on every axis:
    an array of shape `out` (the product of one count per axis: a window is a box)."""
    total = np.ones((), dtype=np.int64)
    for n, kk, s, d, b, o, lp, hp in zip(sizes, kernel, strides, dilations, begin, out,
                                         lo_pad, hi_pad):
        pos = np.arange(o)[:, None] * s + np.arange(kk)[None, :] * d - b
        count = ((pos >= -lp) & (pos < n + hp)).sum(axis=1)
        total = np.multiply.outer(total, count)
    return total


def flat_positions(sizes, strides, dilations, begin, out, offset, column_major=False):
    """The flat index (within one [N, C] plane) of the input element each output position
    sees at kernel offset `offset`, row-major (or column-major) like MaxPool's Indices."""
    idx = np.zeros((), dtype=np.int64)
    axes = range(len(sizes))
    step = 1
    for i in (axes if column_major else reversed(axes)):
        pos = np.arange(out[i]) * strides[i] + offset[i] * dilations[i] - begin[i]
        shape = [1] * len(sizes)
        shape[i] = out[i]
        idx = idx + pos.reshape(shape) * step
        step *= sizes[i]
    return idx


def separable(x, kernel, strides, dilations, begin, out, fn, fill) -> np.ndarray:
    """Reduce every window of x with the ufunc fn (np.maximum, np.add), one spatial axis
    after the other, without making the padding: an output no tap reaches is `fill` (the
    padding value, neutral for fn). Per axis: 3x3/2 windows by `pairs`, other overlapping
    windows by `flat_axis`, the rest by `sliced_axis`; 2-D 3x3/2 pools of 1 MiB or more
    by `pool_3x3s2` (both axes at once, a chunk of planes at a time)."""
    if fits(x, kernel, strides, dilations, begin, out):
        return pool_3x3s2(x, begin, out, fn)
    y = x
    for i, (k, s, d, b, o) in enumerate(zip(kernel, strides, dilations, begin, out)):
        n = y.shape[2 + i]
        lo, hi = clean_windows(n, k, s, d, b, o)
        if (k, s, d) == (3, 2, 1) and (b, n % 2, o) in ((1, 0, n // 2), (0, 1, n // 2)):
            y = pairs(y, 2 + i, fn, b)  # (2-D inputs of 1 MiB or more: pool_3x3s2)
        elif (s == 1 or s < k) and o - (hi - lo) <= EDGES:
            y = flat_axis(y, 2 + i, k, s, d, b, o, fn, fill)
        else:
            y = sliced_axis(y, 2 + i, k, s, d, b, o, fn, fill)
    return y


def sliced_axis(y, axis, k, s, d, b, o, fn, fill) -> np.ndarray:
    """One axis of `separable`: each kernel offset reduced into the outputs whose
    window position falls in the input, as strided slices of the output's size."""
    n = y.shape[axis]
    parts = []  # (output range, input slice) per offset
    for j in range(k):
        lo = max(0, -(-(b - j * d) // s))  # the first t with t * s - b + j * d >= 0
        hi = min(o, (n - 1 + b - j * d) // s + 1)  # one past the last with ... < n
        if lo < hi:
            start = lo * s - b + j * d
            parts.append((slice(lo, hi), slice(start, start + (hi - lo - 1) * s + 1, s)))
    lead = (slice(None),) * axis
    whole = next((p for p in parts if p[0] == slice(0, o)), None)
    if whole is not None:  # an offset every output sees: start from it
        acc = y[lead + (whole[1],)].copy()
        parts.remove(whole)
    else:
        acc = np.full(y.shape[:axis] + (o,) + y.shape[axis + 1:], fill, dtype=y.dtype)
    for dst, src in parts:
        view = acc[lead + (dst,)]
        fn(view, y[lead + (src,)], out=view)
    return acc


# overlapping windows (stride 1, or below the kernel) take the flat runs of `flat_axis`
# (without overlap it would reduce more windows than it keeps: VGG's 2x2/2 ~10% slower)
# when at most this many windows have taps outside the input
EDGES = 8


def flat_axis(y, axis, k, s, d, b, o, fn, fill) -> np.ndarray:
    """One axis of `separable` over the whole array as one flat run (axis and the axes
    after it flattened: a tap j is the array shifted by (j * d - b) rows of `rest`
    elements). The window starting at every row is reduced with k operations over long
    contiguous runs; with stride 1 that is the result, with stride 2 the windows are
    picked out in one copy. A window with a tap outside the input reads the neighbouring
    plane's rows there (or nothing, at the ends): the few such windows at the edges are
    reduced again from their own taps. NumPy's loops over strided or short rows are
    several times slower than over one long run (an axis of 14 is 14-element rows).
    Measured: [576, 14, 14] 3x3/1 pad 1 ~510 -> ~200 us, [192, 56, 56] 3x3/2 end pad 1
    ~650 -> ~400 us."""
    shape = y.shape
    lead, n, rest = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])
    flat = np.ascontiguousarray(y).reshape(-1)
    total = flat.size
    # row r of `full`: the window starting at row r (all taps, where they fall)
    whole = s == 1 and o <= n  # the rows are the windows: `full` is the result
    full = np.empty(total, y.dtype) if whole else scratch("pool", (total,), y.dtype)
    shifts = [(j * d - b) * rest for j in range(k)]
    # the first two taps in one operation, where both fall (elsewhere: edge windows only)
    lo, hi = max(0, -min(shifts[:2])), min(total, total - max(shifts[:2]))
    full[:lo] = fill
    full[hi:] = fill
    if k == 1:
        np.copyto(full[lo:hi], flat[lo + shifts[0]:hi + shifts[0]])
    elif lo < hi:
        fn(flat[lo + shifts[0]:hi + shifts[0]], flat[lo + shifts[1]:hi + shifts[1]],
           out=full[lo:hi])
    for shift in shifts[2:]:
        lo, hi = max(0, -shift), min(total, total - shift)
        if lo < hi:
            fn(full[lo:hi], flat[lo + shift:hi + shift], out=full[lo:hi])
    rows = full.reshape(lead, n, rest)
    c0, c1 = clean_windows(n, k, s, d, b, o)
    if whole:
        acc = rows[:, :o]
    else:
        acc = np.empty((lead, o, rest), y.dtype)
        if c0 < c1:
            acc[:, c0:c1] = rows[:, c0 * s:(c1 - 1) * s + 1:s]
    src = flat.reshape(lead, n, rest)
    for t in [*range(c0), *range(c1, o)]:  # edge windows: from their taps in the input
        taps = [r for r in (t * s + j * d - b for j in range(k)) if 0 <= r < n]
        if not taps:
            acc[:, t] = fill
            continue
        acc[:, t] = src[:, taps[0]]
        for r in taps[1:]:
            fn(acc[:, t], src[:, r], out=acc[:, t])
    return acc.reshape(shape[:axis] + (o,) + shape[axis + 1:])


def pairs(y, axis, fn, begin) -> np.ndarray:
    """One axis of `separable` for a window of 3 and stride 2, n // 2 outputs: with one
    position of padding before on an even length n, window i is fn(y[2i-1], y[2i],
    y[2i+1]); with none on an odd length, fn(y[2i], y[2i+1], y[2i+2]).

    Every window of stride 1 is reduced first, with two operations over the whole array
    as one flat run (a window that runs into the next row or plane is computed and never
    read), and the stride-2 ones are then picked out in one copy: NumPy's loops over
    strided or short rows are several times slower than over one contiguous run
    (measured: [136, 28, 28] 3x3/2 pools ~330 -> ~150 us, [64, 111, 111] ~2 -> ~0.5 ms)."""
    lead, n, rest = math.prod(y.shape[:axis]), y.shape[axis], math.prod(y.shape[axis + 1:])
    o = n // 2
    flat = np.ascontiguousarray(y).reshape(-1)
    size = flat.size - 2 * rest
    full = scratch("pool", (flat.size,), y.dtype)  # window from row r at row r
    fn(flat[:size], flat[rest:rest + size], out=full[:size])
    fn(full[:size], flat[2 * rest:], out=full[:size])
    rows = full.reshape(lead, n, rest)
    if begin == 0:
        acc = rows[:, 0:2 * o:2].copy()
    else:  # window i starts at row 2i - 1; window 0 at row 0 sees two rows
        acc = np.empty((lead, o, rest), dtype=y.dtype)
        acc[:, 1:] = rows[:, 1:n - 2:2]
        v = flat.reshape(lead, n, rest)
        fn(v[:, 0], v[:, 1], out=acc[:, 0])
    return acc.reshape(y.shape[:axis] + (o,) + y.shape[axis + 1:])


def max_pool(x, kernel, strides, dilations, begin, end, out, with_indices, storage_order):
    from .families import lowest

    if 0 in out:
        empty = np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
        return (empty, empty.astype(np.int64)) if with_indices else empty
    if not with_indices:
        return separable(x, kernel, strides, dilations, begin, out, np.maximum,
                         lowest(x.dtype))
    xp = pad_spatial(x, begin, end, out, strides, kernel, dilations, lowest(x.dtype))
    acc = np.full(x.shape[:2] + tuple(out), lowest(x.dtype), dtype=x.dtype)
    where = np.zeros(acc.shape, dtype=np.int64)
    for off in kernel_offsets(kernel):  # the argmax needs every offset in turn
        slab = xp[offset_slices(off, strides, dilations, out)]
        better = slab > acc  # strict: ties keep the first offset
        acc = np.where(better, slab, acc)
        flat = flat_positions(x.shape[2:], strides, dilations, begin, out, off,
                              column_major=bool(storage_order))
        where = np.where(better, flat, where)
    plane = int(np.prod(x.shape[2:]))
    base = np.arange(x.shape[0] * x.shape[1], dtype=np.int64).reshape(
        x.shape[:2] + (1,) * len(out)) * plane
    return acc, where + base
