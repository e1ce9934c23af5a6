"""Conv: N-D convolution (cross-correlation) with groups, strides, dilations and pads.

im2col over the taps of taps.py: the column matrix of an image is [C*K, L] (rows
channel-major, like the weights; L the flat output positions), the taps copied as whole
planes; a 1x1 convolution with stride 1 and no padding uses the input itself. The
weights [G, M/G, C/G*K] multiply it in one batched matmul per image (NumPy calls BLAS
for each group's matrix; a depthwise convolution is G batched [1, K] @ [K, L] products),
the columns of a few groups at a time so that they stay in the cache. The geometry of an
input shape is worked out once; temporaries are scratch buffers (scratch.py).

`order` (set by the executor's channel-shuffle fusion, exec_shuffle.py) puts output
channel ch at channel order[ch] of the result. When the channels of every group land
at evenly spaced places (c + a * group + b * row: ShuffleNet's shuffle, a = 1, b = the
number of groups) the products write their rows there directly (BLAS takes a row
pitch), so the shuffle costs nothing; any other order is one gather at the end.
"""
import numpy as np

from .Relu import zeros
from .base import Kernel
from .scratch import scratch
from .spatial import geometry
from .taps import tap_plan


CHUNK_BYTES = 2 << 20  # the column matrices of one pass (a few groups), at most
# a channel's grid at most this large: its taps are copied across channels
# (RowPlan.copy_taps_across: long rows); larger ones row by row, as each tap's pass over
# all channels would no longer find them in the cache ([136, 28, 28]: 600 -> 840 us)
ACROSS_BYTES = 1 << 10


class Conv(Kernel):
    attrs = {"auto_pad": "NOTSET", "dilations": None, "group": 1, "kernel_shape": None,
             "pads": None, "strides": None}
    n_inputs = (2, 3)
    relu = False  # the executor fused a Relu of the output in (exec_rewrite.fuse_conv_relu)
    order = None  # output channel -> its channel in the result (exec_shuffle.py), or None
    # exec_rewrite.fuse_conv_add: a 4th input of the output's shape is added in place
    # (before a fused Relu), and n_inputs becomes (2, 4)

    def setup(self, **attrs):
        self._plans = {}  # (x shape, w shape) -> (output sizes, TapPlan or None: empty)
        self._filters = (None, None, None, None)  # (w, b, x dtype, filters()) of the last call
        # ((group, M), spacing(group, M), `order` inverted) of the last call
        self._spacing = (None, None, None)

    def run(self, x, w, b=None, addend=None, *, auto_pad="NOTSET", dilations=None, group=1,
            kernel_shape=None, pads=None, strides=None):
        key = (x.shape, w.shape)
        entry = self._plans.get(key)
        if entry is None:
            if len(self._plans) > 64:  # shapes that keep changing: keep the cache small
                self._plans.clear()
            entry = self._plans[key] = self.plan(x, w, auto_pad, dilations, group,
                                                 kernel_shape, pads, strides)
        out, plan = entry
        if plan is None:  # the kernel is wider than the padded input, or no image
            return np.zeros(x.shape[:1] + w.shape[:1] + out, dtype=x.dtype)
        n, (c, m) = x.shape[0], (x.shape[1], w.shape[0])
        wg, bias, dups = self.filters(x, w, b, group)
        flat = plan.split(x, 0)
        k = len(plan.taps)
        y = plan.empty((n, m), wg.dtype)
        spaced = self.spacing(group, m)
        # yg [N, G, M/G, grid]: where each group's rows go (y itself, or spaced rows)
        yg = y.reshape(n, group, m // group, -1) if spaced is None else \
            np.ndarray((n, group, m // group, y.shape[-1]), y.dtype, y, spaced[0] * y.strides[1],
                       (y.strides[0], spaced[1] * y.strides[1], spaced[2] * y.strides[1],
                        y.strides[2]))
        if k == 1 and not plan.masks:  # a 1x1 kernel: the (strided) input is the columns
            cols = plan.tap(flat, 0).reshape(n, group, -1, plan.length)
            for i in range(n):  # one batched product per image (no broadcasting: BLAS)
                np.matmul(wg, cols[i], out=plan.head(yg[i]))
        elif c == group and plan.across and plan.size * x.itemsize <= ACROSS_BYTES:
            # depthwise, stride 1, small images: every channel's taps as one run
            cols = scratch("columns", (n, k, c, plan.size), x.dtype)
            plan.copy_taps_across(flat, cols, 0)
            for i in range(n):  # channel ch's taps: [K, L] at a row pitch (BLAS takes it)
                np.matmul(wg, cols[i, :, :, :plan.length].transpose(1, 0, 2),
                          out=plan.head(yg[i]))
        else:
            # the columns of a few groups at a time, so that they stay in the cache
            per_group = c // group * k * plan.length * x.itemsize
            step = max(1, min(group, CHUNK_BYTES // max(per_group, 1)))
            cg = c // group
            cols = scratch("columns", (n, step * cg, k, plan.length), x.dtype)
            for g0 in range(0, group, step):
                g1 = min(group, g0 + step)
                part = cols[:, :(g1 - g0) * cg]
                plan.copy_taps(flat[:, g0 * cg:g1 * cg], part, 0)
                part = part.reshape(n, g1 - g0, -1, plan.length)  # [N, groups, C/G*K, L]
                for i in range(n):
                    np.matmul(wg[g0:g1], part[i], out=plan.head(yg[i, g0:g1]))
        if self.order is not None and spaced is None:  # rows in the result's order
            y = y[:, self._spacing[2]]
        y = plan.unflatten(y, bias)
        for dst, src in dups:
            # equal filters (and biases) of a group see the same input, so their channels
            # are equal, but BLAS computes the rows of a tile in different orders and
            # they can differ in the last bit; a channel that only repeats another is
            # copied from it (a softmax over large tied logits, as in onnx's constant-
            # weight light models, turns one ulp into a different answer)
            y[:, dst] = y[:, src]
        y = y.astype(x.dtype, copy=False)
        if addend is not None:  # y is new: in place (the rewrite checked the shapes)
            np.add(y, addend, out=y)
        if self.relu:  # y is new: in place
            np.maximum(y, zeros(y.size, y.dtype).reshape(y.shape), out=y)
        return y

    def plan(self, x, w, auto_pad, dilations, group, kernel_shape, pads, strides):
        if x.ndim < 3 or w.ndim != x.ndim or x.shape[1] != w.shape[1] * group \
                or w.shape[0] % group:
            raise self.fail(f"input {list(x.shape)}, weights {list(w.shape)} and group {group} "
                            "do not fit (need C = W.shape[1] * group, M % group == 0)")
        kernel = list(kernel_shape or w.shape[2:])
        kernel, strides, dilations, begin, end, out = geometry(
            self, x, kernel, strides, dilations, pads, auto_pad)
        if 0 in out or x.shape[0] == 0:
            return tuple(out), None
        return tuple(out), tap_plan(tuple(x.shape[2:]), tuple(kernel), tuple(strides),
                                    tuple(dilations), tuple(begin), tuple(out))

    def spacing(self, group: int, m: int):
        """(c, a, b) when `order` puts row r of group q at channel c + a * q + b * r (every
        group's rows evenly spaced, as BLAS can write them), else None."""
        if self.order is None:
            return None
        if self._spacing[0] != (group, m):
            mg = m // group
            order = np.asarray(self.order).reshape(group, mg)
            c = int(order[0, 0])
            a = int(order[1, 0]) - c if group > 1 else 0
            b = int(order[0, 1]) - c if mg > 1 else 1
            even = a >= 0 and b >= 1 and np.array_equal(
                order, c + a * np.arange(group)[:, None] + b * np.arange(mg)[None, :])
            self._spacing = ((group, m), (c, a, b) if even else None, np.argsort(order.ravel()))
        return self._spacing[1]

    def filters(self, x, w, b, group):
        """(weights [G, M/G, C/G*K] in the computing dtype, bias in that dtype and in the
        result's channel order or None, duplicate channels in that order: (slice or
        index array, channel) pairs), worked out once per weight array (a graph's weights
        are the same arrays on every run)."""
        last = self._filters
        if last[0] is w and last[1] is b and last[2] == x.dtype:
            return last[3]
        m = w.shape[0]
        dtype = np.result_type(x, w)
        wg = w.reshape(group, m // group, -1).astype(dtype, copy=False)
        bias = None if b is None else b.astype(dtype, copy=False)
        dups = duplicate_filters(w, b, group)
        if self.order is not None:
            self.spacing(group, m)
            bias = None if bias is None else bias[self._spacing[2]]
            order = np.asarray(self.order)
            dups = [(order[dst], order[src]) for dst, src in dups]
        self._filters = (w, b, x.dtype, (wg, bias, dups))
        return self._filters[3]


def duplicate_filters(w, b, group) -> list:
    m = w.shape[0]
    mg = m // group
    if mg == 1:  # one filter per group (depthwise): nothing to repeat
        return []
    rows = w.reshape(m, -1)
    if b is not None:
        rows = np.concatenate([rows, b.reshape(m, 1).astype(rows.dtype)], axis=1)
    rows = np.ascontiguousarray(rows)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(m)
    found = []
    for g in range(group):  # equal filters give equal channels only within a group
        lo = g * mg
        _, first, inverse = np.unique(keys[lo:lo + mg], return_index=True,
                                      return_inverse=True)
        earliest = [int(e) + lo for e in first[inverse.reshape(-1)]]
        ch = lo
        while ch < lo + mg:  # runs of channels repeating one: one broadcast copy each
            src, end = earliest[ch - lo], ch + 1
            if src != ch:
                while end < lo + mg and earliest[end - lo] == src:
                    end += 1
                found.append((slice(ch, end), slice(src, src + 1)))
            ch = end
    return found
