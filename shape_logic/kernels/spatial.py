"""Geometry shared by Conv, ConvTranspose and the pooling kernels: pads, output sizes,
padded copies and the input slice a kernel offset sees (Conv's windows: taps.py)."""
from __future__ import annotations

from itertools import product

import numpy as np

from .base import Kernel


def geometry(k: Kernel, x: np.ndarray, kernel, strides, dilations, pads, auto_pad,
             ceil_mode=0):
    """(kernel, strides, dilations, pad_begin, pad_end, out sizes) for the spatial axes of x."""
    nd = x.ndim - 2
    if nd < 1:
        raise k.fail(f"input must be [N, C, spatial...], got {list(x.shape)}")
    kernel = list(kernel)
    strides = list(strides or [1] * nd)
    dilations = list(dilations or [1] * nd)
    if not len(kernel) == len(strides) == len(dilations) == nd:
        raise k.fail(f"kernel {kernel}, strides {strides}, dilations {dilations} "
                     f"do not all have {nd} spatial axes of input {list(x.shape)}")
    sizes = x.shape[2:]
    ext = [(kk - 1) * d + 1 for kk, d in zip(kernel, dilations)]  # the dilated extent
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        out = [-(-n // s) for n, s in zip(sizes, strides)]  # ceil(n / s)
        total = [max((o - 1) * s + e - n, 0) for o, s, e, n in zip(out, strides, ext, sizes)]
        # the odd element of padding goes at the end (UPPER) or the beginning (LOWER)
        small = [t // 2 for t in total]
        big = [t - t // 2 for t in total]
        begin, end = (small, big) if auto_pad == "SAME_UPPER" else (big, small)
        return kernel, strides, dilations, begin, end, out
    if auto_pad == "VALID":
        begin, end = [0] * nd, [0] * nd
        # ONNX's VALID with ceil_mode, ceil((n - ext + 1) / s), is floor((n - ext) / s) + 1:
        # ceil_mode changes nothing here (onnxruntime differs: 2 windows of 2 in 3 by 2)
        ceil_mode = 0
    elif auto_pad in ("NOTSET", "", None):
        pads = list(pads or [0] * (2 * nd))
        if len(pads) != 2 * nd:
            raise k.fail(f"pads {pads} must have 2 x {nd} entries")
        begin, end = pads[:nd], pads[nd:]
    else:
        raise k.fail(f"unknown auto_pad {auto_pad!r}")
    out = []
    for n, b, e_, ext_, s in zip(sizes, begin, end, ext, strides):
        span = n + b + e_ - ext_  # negative: the kernel is wider than the padded input
        o = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (o - 1) * s >= n + b:  # a window must start inside input + pad
            o -= 1
        out.append(max(o, 0))  # an empty output, as onnx's reference gives
    return kernel, strides, dilations, begin, end, out


def pad_spatial(x: np.ndarray, begin, end, out, strides, kernel, dilations, value):
    """x padded by begin/end on its spatial axes, and at the end as far as the last window
    reaches (ceil_mode), with `value`."""
    width = [(0, 0), (0, 0)]
    for n, b, e, o, s, kk, d in zip(x.shape[2:], begin, end, out, strides, kernel, dilations):
        reach = (o - 1) * s + (kk - 1) * d + 1
        width.append((b, max(e, reach - n - b)))
    if all(w == (0, 0) for w in width):
        return x
    # a filled array and one copy: np.pad's generality costs more than the copy here
    xp = np.full(tuple(n + b + e for n, (b, e) in zip(x.shape, width)), value, dtype=x.dtype)
    xp[tuple(slice(b, b + n) for n, (b, _) in zip(x.shape, width))] = x
    return xp


def offset_slices(offset, strides, dilations, out):
    """The index of the input seen by kernel offset `offset` at every output position."""
    return (Ellipsis,) + tuple(slice(o * d, o * d + (n - 1) * s + 1, s)
                               for o, s, d, n in zip(offset, strides, dilations, out))


def kernel_offsets(kernel):
    return product(*(range(kk) for kk in kernel))


def clean_windows(n, k, s, d, b, o) -> tuple[int, int]:
    """[lo, hi): the windows (output positions) of one axis whose taps are all in [0, n)
    and whose start row t * s is in the input; the others are edge windows."""
    lo = min(o, -(-b // s))  # the first window whose first tap is in the input
    hi = min(o - 1, (n - 1 + b - (k - 1) * d) // s, (n - 1) // s) + 1
    return lo, max(lo, hi)
