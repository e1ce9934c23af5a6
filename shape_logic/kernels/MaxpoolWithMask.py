"""MaxpoolWithMask (com.microsoft, onnxruntime's "for internal use"): the maximum over each
window of x [N, C, D1, ..] (float32, 1 to 3 spatial axes), windows sized and placed as
onnxruntime's PoolAttributes does it (NhwcMaxPool.ort_windows; no dilations, no
ceil_mode), each cut short by the int32 mask m as onnxruntime's loops do it:

- channel ch (of the N * C) reads the mask from the flat element (ch * P) % (m0 * m1) on,
  P the spatial size (m's first two axes are not a batch and channels to index);
- along the last spatial axis a window stops at the first position whose mask is 0: in
  1-D the window ends there, in 2-D and 3-D only that row (the inner loop), and the
  plane's first element (flat index 0) is never checked there;
- a window that takes nothing gives the lowest float32.

Taken positions are found per kernel tap for every channel and window at once: a tap is
taken when no masked position lies between its row's first position in the window and
itself (`stop`: the last masked position up to each one)."""
from itertools import product

import numpy as np

from .NhwcMaxPool import ort_windows
from .base import REQUIRED, Kernel


class MaxpoolWithMask(Kernel):
    domains = ("com.microsoft",)
    attrs = {"auto_pad": "NOTSET", "kernel_shape": REQUIRED, "pads": None,
             "storage_order": 0, "strides": None}
    n_inputs = (2, 2)

    def run(self, x, m, auto_pad="NOTSET", kernel_shape=None, pads=None, storage_order=0,
            strides=None):
        if x.dtype != np.float32 or m.dtype != np.int32:
            raise self.fail(f"takes float32 x and an int32 mask, not {x.dtype}, {m.dtype}")
        if not 3 <= x.ndim <= 5 or m.ndim != x.ndim or m.shape[2:] != x.shape[2:]:
            raise self.fail(f"x {list(x.shape)} (1 to 3 spatial axes) and the mask "
                            f"{list(m.shape)} must have one rank and spatial sizes")
        n, c = x.shape[:2]
        if n and c and not (m.shape[0] and m.shape[1]):
            raise self.fail(f"the mask {list(m.shape)} has no batch or channels")
        if x.size == 0 and n != 0:
            raise self.fail(f"x of shape {list(x.shape)} is empty, and only its batch may be")
        sizes = x.shape[2:]
        kernel, strides, _, begin, out = ort_windows(self, sizes, kernel_shape, strides, None,
                                                     pads, auto_pad)
        y = np.full((n * c,) + tuple(out), np.finfo(np.float32).min, np.float32)
        if y.size == 0:
            return y.reshape((n, c) + tuple(out))
        plane = int(np.prod(sizes))
        start = (np.arange(n * c) * plane) % (m.shape[0] * m.shape[1])
        masked = m.reshape(-1)[start[:, None] + np.arange(plane)] == 0
        if len(sizes) > 1:
            masked[:, 0] = False
        masked = masked.reshape((n * c,) + sizes)
        last = np.arange(sizes[-1])
        stop = np.maximum.accumulate(np.where(masked, last, -1), axis=-1)
        xs = x.reshape((n * c,) + sizes)
        # per axis: each window's first position (before clipping to the input)
        firsts = [np.arange(o) * s - b for o, s, b in zip(out, strides, begin)]
        row_first = np.maximum(firsts[-1], 0)  # where the last axis's loop starts
        shape = [1] * len(out)
        for off in product(*(range(kk) for kk in kernel)):
            index, inside = [], np.ones(out, bool)
            for i, (f, j, size) in enumerate(zip(firsts, off, sizes)):
                pos = f + j
                ok = (pos >= 0) & (pos < size)
                shape[i] = len(f)
                index.append(np.clip(pos, 0, size - 1).reshape(shape))
                inside &= ok.reshape(shape)
                shape[i] = 1
            grid = np.broadcast_arrays(*index)
            taken = inside & (stop[(slice(None),) + tuple(grid)] < row_first)
            value = xs[(slice(None),) + tuple(grid)]
            np.copyto(y, value, where=taken & (value > y))
        return y.reshape((n, c) + tuple(out))
