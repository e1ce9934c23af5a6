"""The pooling family: MaxPool, AveragePool and LpPool slide a window over the spatial
axes. A window is a box, so max and sum reduce it one axis at a time (separably): k1 + k2
vectorized operations per output instead of k1 * k2."""
from __future__ import annotations

import numpy as np

from .base import REQUIRED, Kernel
from .spatial import geometry, kernel_offsets, offset_slices, pad_spatial


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


def separable(xp, kernel, strides, dilations, out, fn) -> np.ndarray:
    """Reduce every window of the padded input with the ufunc fn (np.maximum, np.add),
    one spatial axis after the other: each pass keeps only the strided window starts."""
    y = xp
    for i, (k, s, d, o) in enumerate(zip(kernel, strides, dilations, out)):
        index = [slice(None)] * y.ndim
        acc = None
        for j in range(k):  # the offsets of the window along this axis
            index[2 + i] = slice(j * d, j * d + (o - 1) * s + 1, s)
            part = y[tuple(index)]
            acc = part.copy() if acc is None else fn(acc, part, out=acc)
        y = acc
    return y


def max_pool(x, kernel, strides, dilations, begin, end, out, with_indices, storage_order):
    from .families import lowest

    xp = pad_spatial(x, begin, end, out, strides, kernel, dilations, lowest(x.dtype))
    if 0 in out:
        empty = np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
        return (empty, empty.astype(np.int64)) if with_indices else empty
    if not with_indices:
        return separable(xp, kernel, strides, dilations, out, np.maximum)
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
