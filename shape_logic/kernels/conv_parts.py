"""One Conv call cut into parts for the intra-op threads (workers.py): the products of
a block of filters and their finishing (bias, a fused residual Add, a fused Relu).

Everything is addressed in filter order through views [N, G, M/G, ...] of the buffers
(`group_view`): the grid buffer the products fill (`yg`), the result (`outg`) and the
residual addend (`addg`), each laid out in the result's channel order, which a fused
channel shuffle with evenly spaced channels makes a strided view (Conv's `order`). So
a part touches only its own filters' rows and needs no other part's:

- grouped convolutions: a part is a range of whole groups, from splitting and copying
  its own input channels to finishing its rows (one parallel section);
- one group: a part is a range of whole rows of the flat output positions, from one
  split of the input; finished there when the grid is the result itself (`compact`),
  else by ranges of filters in a second section (the cut out of the grid);
- one group, a 1x1 kernel or fewer positions than filters: a part is a range of
  filters over one column matrix made before the parts (`share_columns`; a 1x1 kernel:
  the input).

Equal filters' channels are copied where the products are made (before the bias, the
addend and the Relu, which act on both alike), within the part that made them; when the
parts split the filters, after them (the original may be another part's), and the call
is then finished as a whole.
"""
from __future__ import annotations

import numpy as np

from .Relu import zeros
from .blas import padded_columns
from .scratch import scratch

CHUNK_BYTES = 2 << 20  # the column matrices of one pass (a few groups), at most
# one group: the column matrix of one pass (whole rows), at most: the L2 cache's size here,
# so that BLAS reads the columns where the copy left them (cold cache, min of 12
# interleaved: resnet's 64 -> 64 3x3 at 56x56 3.55 -> 3.29 ms, the 7x7/2 first conv
# 4.28 -> 4.07 ms against 4 MiB; 1 MiB: 3.07 and 4.35)
COLUMN_BYTES = 2 << 20


def group_view(a: np.ndarray, group: int, spaced) -> np.ndarray:
    """a [N, M, L] (contiguous over M and L) as [N, G, M/G, L] in filter order: filter
    (q, r) at channel q * M/G + r, or at c + a * q + b * r when `spaced` is (c, a, b)."""
    n, m, length = a.shape
    if spaced is None:
        return a.reshape(n, group, m // group, length)
    c, sa, sb = spaced
    step = a.strides[1]
    return np.ndarray((n, group, m // group, length), a.dtype, a, c * step,
                      (a.strides[0], sa * step, sb * step, a.strides[2]))


def spread(total: int, parts: int, unit: int) -> list[int]:
    """Bounds 0 = b0 < b1 < ... = total cutting [0, total) into at most `parts` pieces of
    about equal size, every inner bound a multiple of `unit`."""
    units = -(-total // unit)
    parts = max(1, min(parts, units))
    inner = [min(total, (units * p // parts) * unit) for p in range(1, parts)]
    return [0] + [b for b in inner if 0 < b < total] + [total]


def ones_below(cols: np.ndarray, axis: int, width: int | None = None) -> np.ndarray:
    """cols with a row of ones appended along `axis` (a scratch copy): against weights
    whose last column is the bias, the products add it. With a `width` beyond the
    last axis's, the copy has that many columns, the extra ones zero (`padded`)."""
    shape = list(cols.shape)
    shape[axis] += 1
    width = shape[-1] if width is None else width
    block = scratch("columns", tuple(shape[:-1]) + (width,), cols.dtype)
    index = (slice(None),) * axis
    np.copyto(block[index + (slice(0, -1),) + (Ellipsis, slice(0, cols.shape[-1]))], cols)
    block[index + (-1,)] = 1
    if width > cols.shape[-1]:
        block[..., cols.shape[-1]:] = 0
    return block


def column_block(shape: tuple, positions: int, dtype, name: str = "columns"):
    """A scratch block [..., rows, padded_columns(positions)] for column matrices over
    `positions` columns, the columns past them zero (thrown away after the products)."""
    width = padded_columns(positions, dtype)
    block = scratch(name, tuple(shape) + (width,), dtype)
    if width > positions:
        block[..., positions:] = 0
    return block


def product(w: np.ndarray, cols: np.ndarray, out: np.ndarray) -> None:
    """out [M, n] = w @ cols [K, width] over its first n columns: when the columns are
    padded (`padded_columns`), a product over all of them into a scratch array, then its
    first n columns copied out (BLAS's full-width kernels and a copy of the result cost
    less than its kernels for the columns left over)."""
    n = out.shape[-1]
    if cols.shape[-1] == n:
        np.matmul(w, cols, out=out)
        return
    full = scratch("padded product", out.shape[:-1] + cols.shape[-1:], out.dtype)
    np.matmul(w, cols, out=full)
    np.copyto(out, full[..., :n])


class Call:
    """The buffers and geometry of one Conv call; its methods are the parts."""

    def __init__(self, plan, x, wg, yg, dups):
        self.plan, self.x, self.wg, self.yg = plan, x, wg, yg
        self.dups = dups  # [(group, rows, row)]: equal filters (Conv.filters)
        self.flat = None  # the split input (one group: made once, before the parts)
        self.split = False  # each part finishes its filters (`parted`), else `whole`
        self.last = None  # the finishing of the whole call, after the parts
        self.wb = None  # one group: wg with the bias as a last column (Conv.folded), or None
        self.shared = None  # one group split by filters: the columns (share_columns)
        self.depthwise = None  # one input channel per group: the weights for `plan`, a
        # DepthwisePlan (depthwise.py)

    def parted(self, result, bias, addend, relu: bool, spaced, compact: bool) -> None:
        """Each part finishes its own filters: through views in filter order of the
        result and the addend; `bias` [G, M/G] in filter order."""
        n, m, *out = result.shape
        group = self.wg.shape[0]
        outg = group_view(result.reshape(n, m, -1), group, spaced)
        self.outg = outg.reshape(outg.shape[:3] + tuple(out))
        addg = None
        if addend is not None:
            addg = group_view(np.ascontiguousarray(addend).reshape(n, m, -1), group, spaced)
            addg = addg if compact else addg.reshape(addg.shape[:3] + tuple(out))
        self.addg, self.bias, self.relu, self.compact = addg, bias, relu, compact
        self.split = True

    def whole(self, result, grid, bias, addend, relu: bool, compact: bool) -> None:
        """The call is finished as a whole after its one part (`finish_whole`); `bias`
        [M, 1] in the grid's row order."""
        self.last = (result, grid, bias, addend, relu, compact)

    # ----- grouped: whole groups per part
    def groups(self, g0: int, g1: int) -> None:
        """Groups [g0, g1) of every image, products to finishing."""
        plan, x, wg, yg = self.plan, self.x, self.wg, self.yg
        n, group = x.shape[0], wg.shape[0]
        cg = x.shape[1] // group
        flat = plan.split(x[:, g0 * cg:g1 * cg], 0)  # this thread's scratch buffer
        k = len(plan.taps)
        if self.depthwise is not None:  # no columns (depthwise.py)
            plan.run(flat, self.depthwise[g0:g1], yg[:, g0:g1])
        elif k == 1 and not plan.masks:  # a 1x1 kernel: the (strided) input is the columns
            cols = plan.tap(flat, 0).reshape(n, g1 - g0, -1, plan.length)
            w = wg[g0:g1]
            if self.wb is not None:  # the bias by a row of ones (Conv.folded)
                cols, w = ones_below(cols, 2), self.wb[g0:g1]
            for i in range(n):  # one batched product per image (no broadcasting: BLAS)
                np.matmul(w, cols[i], out=plan.head(yg[i, g0:g1]))
        else:
            # the columns of a few groups at a time, so that they stay in the cache
            per_group = cg * k * plan.length * x.itemsize
            step = max(1, min(g1 - g0, CHUNK_BYTES // max(per_group, 1)))
            cols = scratch("columns", (n, step * cg, k, plan.length), x.dtype)
            for a in range(g0, g1, step):
                z = min(g1, a + step)
                part = cols[:, :(z - a) * cg]
                plan.copy_taps(flat[:, (a - g0) * cg:(z - g0) * cg], part, 0)
                part = part.reshape(n, z - a, -1, plan.length)  # [N, groups, C/G*K, L]
                for i in range(n):
                    np.matmul(wg[a:z], part[i], out=plan.head(yg[i, a:z]))
        for q, rows, row in self.dups:
            if g0 <= q < g1:
                yg[:, q, rows] = yg[:, q, row]
        if self.split:
            self.finish(g0, g1, 0, wg.shape[1])

    # ----- one group: whole rows of the flat output positions per part
    def columns(self, lo: int, hi: int) -> None:
        """The flat output positions [lo, hi) of every image (and their finishing when
        the grid is the result)."""
        plan, flat, wg, yg = self.plan, self.flat, self.wg, self.yg
        n, c = flat.shape[:2]
        k = len(plan.taps)
        if k == 1 and not plan.masks:  # a 1x1 kernel: the (strided) input is the columns
            cols = plan.tap(flat, 0)[..., lo:hi]
            w = wg[0]
            if self.wb is not None:  # the bias by a row of ones (Conv.folded), in a copy
                cols, w = ones_below(cols, 1, padded_columns(hi - lo, cols.dtype)), self.wb[0]
            for i in range(n):
                product(w, cols[i], plan.head(yg[i, 0])[..., lo:hi])
        else:  # the columns of a few rows at a time, so that they stay in the cache
            rows = max(1, COLUMN_BYTES // (n * c * k * plan.pitch * flat.itemsize))
            ones = int(self.wb is not None)  # a last row of ones: the bias column's
            w = wg[0] if self.wb is None else self.wb[0]
            for a in range(lo, hi, rows * plan.pitch):
                z = min(hi, a + rows * plan.pitch)
                block = column_block((n, c * k + ones), z - a, flat.dtype)
                if ones:
                    block[:, c * k] = 1
                # (views: a cut of the columns, an axis split)
                cols = np.reshape(block[:, :c * k, :z - a], (n, c, k, z - a), copy=False)
                plan.copy_taps(flat, cols, 0, a, z)
                for i in range(n):
                    product(w, block[i], plan.head(yg[i, 0])[..., a:z])
        for _, rows, row in self.dups:
            yg[:, 0, rows, lo:hi] = yg[:, 0, row, lo:hi]
        if self.split and self.compact:
            self.finish(0, 1, 0, wg.shape[1], lo, hi)

    def share_columns(self) -> None:
        """One group: the column matrices of every position [N, C*K (+ 1), L], made once
        for `filter_rows` (the parts only read them)."""
        plan, flat = self.plan, self.flat
        n, c = flat.shape[:2]
        k = len(plan.taps)
        ones = int(self.wb is not None)  # a last row of ones: the bias column's
        # (a name of its own: a part running on this thread asks for "columns")
        length = plan.length
        block = column_block((n, c * k + ones), length, flat.dtype, "shared columns")
        if ones:
            block[:, c * k] = 1
        plan.copy_taps(flat, np.reshape(block[:, :c * k, :length], (n, c, k, length),
                                        copy=False), 0)
        self.shared = block

    def filter_rows(self, r0: int, r1: int) -> None:
        """One group: filters [r0, r1) at every position (and their finishing when each
        part finishes its own), from the shared columns or, with a 1x1 kernel, the input
        itself. For few positions (late layers), where whole rows of positions would
        leave BLAS skinny products, and for 1x1 kernels (no columns to copy in parts)."""
        plan, yg = self.plan, self.yg
        cols = self.shared if self.shared is not None else plan.tap(self.flat, 0)
        w = (self.wg if self.wb is None else self.wb)[0, r0:r1]
        for i in range(cols.shape[0]):
            product(w, cols[i], plan.head(yg[i, 0, r0:r1]))
        if self.split:
            self.finish(0, 1, r0, r1)

    def copy_duplicates(self) -> None:
        """One group, after `filter_rows`: the channels of equal filters (Conv.filters)
        copied from the one they repeat (which another part may have made)."""
        for _, rows, row in self.dups:
            self.yg[:, 0, rows] = self.yg[:, 0, row]

    # ----- finishing
    def finish(self, g0: int, g1: int, r0: int, r1: int, lo: int = 0,
               hi: int | None = None) -> None:
        """Filters (g0..g1, r0..r1): cut out of the grid into the result (unless the grid
        is the result: then only the flat positions [lo, hi)), plus the bias, the
        addend and the Relu, in place."""
        if self.compact:
            dst = self.yg[:, g0:g1, r0:r1, lo:hi]
            add = None if self.addg is None else self.addg[:, g0:g1, r0:r1, lo:hi]
        else:
            dst = self.outg[:, g0:g1, r0:r1]
            np.copyto(dst, self.plan.cut(self.yg[:, g0:g1, r0:r1]))
            add = None if self.addg is None else self.addg[:, g0:g1, r0:r1]
        if self.bias is not None:
            b = self.bias[g0:g1, r0:r1]
            np.add(dst, b.reshape(b.shape + (1,) * (dst.ndim - 3)), out=dst)
        if add is not None:
            np.add(dst, add, out=dst)
        if self.relu:
            np.maximum(dst, zeros(dst.size, dst.dtype).reshape(dst.shape), out=dst)

    def finish_whole(self) -> None:
        """The whole call's finishing (`whole`), over contiguous arrays."""
        if self.last is None:
            return
        result, grid, bias, addend, relu, compact = self.last
        n, m = result.shape[:2]
        if not compact:
            np.copyto(result, self.plan.cut(grid))
        if bias is not None:
            rows = result.reshape(n, m, -1)
            np.add(rows, bias, out=rows)
        if addend is not None:
            np.add(result, addend, out=result)
        if relu:
            flat = result.reshape(-1)
            np.maximum(flat, zeros(flat.size, flat.dtype), out=flat)
