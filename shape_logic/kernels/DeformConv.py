"""DeformConv (opsets 19, 22): deformable convolution. Each tap of the kernel samples the
input at its place in the window shifted by its offset (one per offset group, tap, spatial
axis and output position), by linear interpolation between the neighbouring elements
(multilinear over N spatial axes; an element outside the input counts as zero), weighted
by the mask (ones without it); the samples then meet the weights as Conv's columns do.

Vectorized per interpolation corner (2^N of them): the corners' flat indices gather the
samples of every tap, position and channel at once into the columns [N, C, taps, L] (L
output positions), and one batched matmul per group applies the weights. Computed in
float32 (float64 for float64) and rounded once.

The spec is N-D, as this kernel is; onnx's reference and onnxruntime implement 2-D only.
onnx's reference also fails on a spatial axis of size 1 (it normalizes the sampling
positions by size - 1); onnxruntime and this kernel sample it as any other.
"""
from itertools import product

import numpy as np

from .base import Kernel
from .spatial import geometry


class DeformConv(Kernel):
    attrs = {"dilations": None, "group": 1, "kernel_shape": None, "offset_group": 1,
             "pads": None, "strides": None}
    n_inputs = (3, 5)

    def run(self, x, w, offset, b=None, mask=None, *, dilations=None, group=1,
            kernel_shape=None, offset_group=1, pads=None, strides=None):
        if x.ndim < 3 or w.ndim != x.ndim or group < 1 or offset_group < 1 \
                or x.shape[1] != w.shape[1] * group or w.shape[0] % group \
                or x.shape[1] % offset_group:
            raise self.fail(f"input {list(x.shape)}, weights {list(w.shape)}, group {group} "
                            f"and offset_group {offset_group} do not fit (need C = "
                            "W.shape[1] * group, M % group == 0, C % offset_group == 0)")
        if kernel_shape is not None and list(kernel_shape) != list(w.shape[2:]):
            raise self.fail(f"kernel_shape {list(kernel_shape)} is not the weights' "
                            f"{list(w.shape[2:])}")
        kernel, strides, dilations, begin, _, out = geometry(
            self, x, w.shape[2:], strides, dilations, pads, "NOTSET")
        n, c, m, nd = x.shape[0], x.shape[1], w.shape[0], x.ndim - 2
        taps, length = int(np.prod(kernel)), int(np.prod(out))
        for name, arr, per_tap in (("offset", offset, nd), ("mask", mask, 1)):
            want = (n, offset_group * taps * per_tap, *out)
            if arr is not None and arr.shape != want:
                raise self.fail(f"{name} {list(arr.shape)} must be {list(want)}")
        dtype = np.float64 if x.dtype == np.float64 else np.float32
        if n * m * length == 0:
            return np.zeros((n, m, *out), x.dtype)
        cols = self.sample(x.astype(dtype, copy=False), offset.astype(dtype, copy=False),
                           offset_group, kernel, strides, dilations, begin, out)
        if mask is not None:  # [N, G, 1, taps, L]
            cols *= mask.astype(dtype).reshape(n, offset_group, 1, taps, length)
        # the columns by group, channel-major as the weights [group, M/group, C/group*taps]
        cols = cols.reshape(n, group, c // group * taps, length)
        y = np.matmul(w.astype(dtype).reshape(group, m // group, -1), cols)
        y = y.reshape(n, m, *out)
        if b is not None:
            y += b.astype(dtype).reshape((m,) + (1,) * nd)
        return y.astype(x.dtype)

    @staticmethod
    def sample(x, offset, groups, kernel, strides, dilations, begin, out):
        """The columns [N, groups, C/groups, taps, L]: input channel c of offset group g at
        tap t and output position l, sampled where the offset moved the tap."""
        n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
        nd, taps, length = len(sizes), int(np.prod(kernel)), int(np.prod(out))
        shift = offset.reshape(n, groups, taps, nd, length)
        tap_at = np.indices(kernel).reshape(nd, taps)
        out_at = np.indices(out).reshape(nd, length)
        low, frac = [], []  # per axis [N, groups, taps, L]: the element below, the fraction
        for i in range(nd):
            place = (dilations[i] * tap_at[i][:, None] + strides[i] * out_at[i][None, :]
                     - begin[i]) + shift[:, :, :, i, :]
            low.append(np.floor(place))
            frac.append(place - low[i])
            low[i] = low[i].astype(np.int64)
        cols = np.zeros((n, groups, c // groups, taps * length), x.dtype)
        if 0 in sizes:  # padding only: every sample falls outside
            return cols.reshape(n, groups, c // groups, taps, length)
        flat_x = x.reshape(n, groups, c // groups, -1)
        for corner in product((0, 1), repeat=nd):  # the 2^N neighbours of each sample
            weight = np.ones(low[0].shape, x.dtype)
            inside = np.ones(low[0].shape, bool)
            flat = np.zeros(low[0].shape, np.int64)
            for i, up in enumerate(corner):
                at = low[i] + up
                weight *= frac[i] if up else 1 - frac[i]
                inside &= (at >= 0) & (at < sizes[i])
                flat = flat * sizes[i] + np.clip(at, 0, sizes[i] - 1)
            values = np.take_along_axis(flat_x, flat.reshape(n, groups, 1, -1), axis=3)
            cols += values * np.where(inside, weight, 0).reshape(n, groups, 1, -1)
        return cols.reshape(n, groups, c // groups, taps, length)
