"""Conv: N-D convolution (cross-correlation) with groups, strides, dilations and pads.

im2col: the column matrix [C*K, P] is one copy of a strided window view of the input
(sliding_window_view), multiplied by the weights [M, C*K] with a 2-D BLAS matmul per
image and group (NumPy's batched matmul does not reach BLAS when it broadcasts). A
depthwise convolution (one input channel per group) is a batched [1, K] @ [K, P].
"""
import numpy as np

from .base import Kernel
from .spatial import geometry, offset_slices, pad_spatial, windows


class Conv(Kernel):
    attrs = {"auto_pad": "NOTSET", "dilations": None, "group": 1, "kernel_shape": None,
             "pads": None, "strides": None}
    n_inputs = (2, 3)
    _filters = (None, None, False)  # (w, b, every filter and bias the same) of the last call

    def run(self, x, w, b=None, auto_pad="NOTSET", dilations=None, group=1,
            kernel_shape=None, pads=None, strides=None):
        if x.ndim < 3 or w.ndim != x.ndim or x.shape[1] != w.shape[1] * group \
                or w.shape[0] % group:
            raise self.fail(f"input {list(x.shape)}, weights {list(w.shape)} and group {group} "
                            "do not fit (need C = W.shape[1] * group, M % group == 0)")
        kernel = list(kernel_shape or w.shape[2:])
        kernel, strides, dilations, begin, end, out = geometry(
            self, x, kernel, strides, dilations, pads, auto_pad)
        if 0 in out or x.shape[0] == 0:  # the kernel is wider than the padded input
            return np.zeros(x.shape[:1] + w.shape[:1] + tuple(out), dtype=x.dtype)
        xp = pad_spatial(x, begin, end, out, strides, kernel, dilations, 0)
        if w.shape[1] == 1 and group == w.shape[0]:
            y = depthwise(xp, w, kernel, strides, dilations, out)
        else:
            y = im2col_matmul(xp, w, group, kernel, strides, dilations, out)
        if b is not None:
            y += b.reshape((1, -1) + (1,) * len(out)).astype(y.dtype, copy=False)
        if group == 1 and w.shape[0] > 1 and self.same_filters(w, b):
            # BLAS computes the rows of a tile in different orders, so equal filters can
            # give channels that differ in the last bit; a softmax over large logits turns
            # that into a different answer (onnx's light models have constant weights)
            y[:, 1:] = y[:, :1]
        return y.astype(x.dtype, copy=False)

    def same_filters(self, w, b) -> bool:
        """Whether every filter (and bias) equals the first; decided once per weight array
        (a graph's weights are the same arrays on every run)."""
        last_w, last_b, same = self._filters
        if w is not last_w or b is not last_b:
            same = bool(np.array_equal(w, np.broadcast_to(w[:1], w.shape)) and
                        (b is None or np.all(b == b.reshape(-1)[:1])))
            self._filters = (w, b, same)
        return same


def columns(xp, kernel, strides, dilations, out) -> np.ndarray:
    """The im2col matrix of every image: [N, C*K, P] (rows channel-major, like w)."""
    n, c = xp.shape[:2]
    if all(k == 1 for k in kernel):  # 1x1: the (strided) input is the column matrix
        return np.ascontiguousarray(xp[offset_slices([0] * len(kernel), strides, dilations,
                                                     out)]).reshape(n, c, -1)
    nd = len(kernel)
    win = windows(xp, kernel, strides, dilations, out)  # [N, C, *out, *k], a view
    order = (0, 1) + tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(2, 2 + nd))
    # one copy, in NumPy's own loop: faster than a strided copy per kernel offset
    return win.transpose(order).reshape(n, c * int(np.prod(kernel)), -1)


def im2col_matmul(xp, w, group, kernel, strides, dilations, out) -> np.ndarray:
    n = xp.shape[0]
    m = w.shape[0]
    cols = columns(xp, kernel, strides, dilations, out)  # [N, C*K, P]
    rows = cols.shape[1] // group  # Cg*K rows per group (channel-major, like w)
    wg = w.reshape(group, m // group, -1)
    y = np.empty((n, m, cols.shape[2]), dtype=np.result_type(xp, w))
    mg = m // group
    for i in range(n):  # images and groups: a handful of 2-D BLAS calls
        for g in range(group):
            np.matmul(wg[g], cols[i, g * rows:(g + 1) * rows], out=y[i, g * mg:(g + 1) * mg])
    return y.reshape((n, m) + tuple(out))


def depthwise(xp, w, kernel, strides, dilations, out) -> np.ndarray:
    """One filter per channel: per image, a batched [1, K] @ [K, P] product over channels
    (no broadcasting, so NumPy runs it as one tight loop)."""
    n, c = xp.shape[:2]
    cols = columns(xp, kernel, strides, dilations, out)  # [N, C*K, P]
    k = int(np.prod(kernel))
    wk = w.reshape(c, 1, k)
    y = np.empty((n, c, 1, cols.shape[2]), dtype=np.result_type(xp, w))
    for i in range(n):
        np.matmul(wk, cols[i].reshape(c, k, -1), out=y[i])
    return y.reshape((n, c) + tuple(out))
