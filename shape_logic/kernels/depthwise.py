"""Depthwise convolutions (one input channel per group) without a column matrix of taps.

A tap's flat offset (taps.py) is the sum of a shift along the last spatial axis (b, a few
positions) and a row offset of the leading axes (a, whole rows of the flat grid):
channel c's output at flat position l is the sum over a, b of w[c, a, b] * X[c, l + b + a]
(X its phase of the split input). So:

- U [S, positions]: the split writes the phases into U's first rows; each other shift b
  is a copy of its phase, one long run over every channel (a 3x3 kernel, stride 1: two
  copies, where im2col copies all nine taps a row per channel and tap);
- V = W' @ U, one product per channel (W' [R, S] its weights: R the row offsets, S the
  rows of U; zeros where a phase has no tap at a row offset): every row offset's partial
  sums, as many multiply-adds as im2col's [1, K] @ [K, L];
- the output is the sum of V's R rows, each shifted by its row offset (R - 1 additions of
  long runs), cut into the output positions (the grid is the result: nothing to cut
  afterwards). RowPlan's wrapped columns (a tap left of column 0 reads the row before)
  are zeroed in U: a column of U is read by its own output column only.

Measured against the columns it replaces (Call.groups: every tap copied, then [1, 9] @
[9, L] per channel; small images copied across channels), 3x3, float32, whole Conv
calls, interleaved, min of 400 hot: ShuffleNet's [1, 136, 28, 28] 195 -> 143 us,
[1, 272, 14, 14] 126 -> 100, [1, 544, 7, 7] 117 -> 85, stride 2 [1, 112, 56, 56]
364 -> 274, [1, 136, 28, 28] 162 -> 139, [1, 272, 14, 14] 136 -> 111; cold caches
(median) 417 -> 352, 245 -> 220, 184 -> 193, 629 -> 444, 300 -> 238, 252 -> 219. In
ShuffleNet (2 threads, in-process, 100 runs each): the 16 depthwise 2.74 -> 2.13 ms a run.
What lost: np.einsum over strided tap views or over U (its loop ~0.12 ns a multiply-add,
BLAS's ~0.06; over views it loops the 3 taps of a row, their stride equal to the
positions'), a multiply-add per tap over whole arrays ([136, 28, 28] ~720 us: two passes
per tap, a per-row weight is NumPy's slow broadcast), V's sums as a product by ones (~40%
slower than two additions), the sums added straight into the output's strided rows
(36 us where an addition over runs and a cut took 23), and deinterleaving a stride-2
input through a uint64 view (its odd columns are unaligned: ~20% off the 56x56 split,
nothing on smaller ones).
"""
from __future__ import annotations

import threading

import numpy as np

from .scratch import scratch


class DepthwisePlan:
    """The rows of U and V for one TapPlan or RowPlan (`taps`, see the module). It stands
    for that plan in Conv's call (conv_parts.Call): its grid is the output itself (the
    last sum is cut into it), so there is nothing to cut afterwards."""

    compact = True

    def __init__(self, taps, out):
        self.taps_plan = taps
        self.out = tuple(out)
        self.taps, self.masks = taps.taps, taps.masks
        self.length = taps.length  # (Conv's estimate of the work)
        self.size = taps.size
        self.phases = getattr(taps, "n_phases", 1)
        k_last = taps.kernel[-1]
        last = [off for _, off in taps.taps[:k_last]]  # the taps (0, ..., 0, b)
        keys = [(phase, last[t % k_last]) for t, (phase, _) in enumerate(taps.taps)]
        leads = [off - last[t % k_last] for t, (_, off) in enumerate(taps.taps)]
        # the rows of U, (phase, flat offset): first each phase as the split made it (a
        # row whose weights are all 0 when no tap reads it so), then shifted copies
        self.cols = [(p, 0) for p in range(self.phases)] + sorted(
            {key for key in keys if key[1]})
        self.leads = sorted(set(leads))  # the rows of V: their flat offsets
        self.where_r = np.array([self.leads.index(r) for r in leads])
        self.where_s = np.array([self.cols.index(key) for key in keys])
        # the copies, a run of rows at a time: (first row, rows, source row, offset,
        # source row step, offset step)
        self.runs = []
        for row, (phase, off) in enumerate(self.cols[self.phases:], self.phases):
            if self.runs:
                r0, count, src, first, src_step, step = self.runs[-1]
                if count == 1 or (phase - src, off - first) == (count * src_step,
                                                                 count * step):
                    if count == 1:
                        src_step, step = phase - src, off - first
                    self.runs[-1] = (r0, count + 1, src, first, src_step, step)
                    continue
            self.runs.append((row, 1, phase, off, 0, 0))
        # RowPlan: the output columns whose tap along the last axis reads the next or
        # previous row instead of padding, by U's row
        self.zeros = [(self.cols.index((0, last[b])), columns)
                      for b, _, columns in taps.masks]
        self.row = taps.pitch
        self.span = taps.length + self.leads[-1]  # the positions of U and V a channel uses
        # the output positions among a channel's flat positions: the grid's strides
        grid = taps.buffer if hasattr(taps, "buffer") else taps.grid
        steps = [1] * len(grid)
        for i in range(len(grid) - 2, -1, -1):
            steps[i] = steps[i + 1] * grid[i + 1]
        self.steps = tuple(steps)
        self._pitches = {}  # (N * C, dtype) -> (`pitches`)
        self._views = {}  # (thread, N, C, M/C, dtypes) -> (U, V, `views` of them)

    def split(self, x: np.ndarray, value) -> np.ndarray:
        """The phases of x into U's first rows (`views`): [N, C, phases, size]."""
        n, c = x.shape[:2]
        u_pitch, _ = self.pitches(n * c, x.dtype)
        u = scratch("depthwise U", (len(self.cols), u_pitch), x.dtype)
        item = u.itemsize
        phases = np.ndarray((n, c, self.phases, self.size), u.dtype, u, 0,
                            (c * self.size * item, self.size * item, u_pitch * item, item))
        return self.taps_plan.split(x, value, phases)

    def grid_length(self) -> int:
        return int(np.prod(self.out))

    def head(self, buf: np.ndarray) -> np.ndarray:
        return buf

    def cut(self, buf: np.ndarray) -> np.ndarray:
        return buf.reshape(buf.shape[:-1] + self.out)

    def weights(self, wg: np.ndarray) -> np.ndarray:
        """wg [G, M/G, K] (one input channel per group) as W' [G, M/G * R, S]: filter f's
        rows at f * R."""
        g, mg, _ = wg.shape
        w3 = np.zeros((g, mg, len(self.leads), len(self.cols)), wg.dtype)
        w3[:, :, self.where_r, self.where_s] = wg
        return w3.reshape(g, mg * len(self.leads), len(self.cols))

    def run(self, flat: np.ndarray, w3: np.ndarray, out: np.ndarray) -> None:
        """out [N, C, M/C, output positions] (a view) = the convolution of the split input
        (`split`: flat [N, C, phases, size], in U) by W' [C, M/C * R, S] (`weights`)."""
        n, c = flat.shape[:2]
        mg = out.shape[2]
        dtype = w3.dtype
        u_pitch, v_pitch = self.pitches(n * c, flat.dtype)
        # U is the buffer `split` wrote the phases into (flat views it): asked for again, a
        # scratch buffer past scratch.LIMIT is a new array, not the one split filled (a
        # [1, 16, 400, 304] depthwise convolution computed on garbage)
        u = flat.base if isinstance(flat.base, np.ndarray) and \
            flat.base.shape == (len(self.cols), u_pitch) else \
            scratch("depthwise U", (len(self.cols), u_pitch), flat.dtype)
        v = scratch("depthwise V", (mg * len(self.leads), v_pitch), dtype)
        key = (threading.get_ident(), n, c, mg, flat.dtype, dtype)
        views = self._views.get(key)
        if views is None or views[0] is not u or views[1] is not v:
            if len(self._views) > 8:
                self._views.clear()
            views = self._views[key] = (u, v) + self.views(u, v, n, c, mg)
        _, _, copies, zeros, uv, vv, sums, cuts = views
        for dst, src in copies:
            np.copyto(dst, src)
        for view in zeros:
            view.fill(0)
        for i in range(n):
            np.matmul(w3, uv[i], out=vv[i])
        for acc, shifted in sums:
            np.add(acc, shifted, out=acc)
        for f, src in enumerate(cuts):
            np.copyto(out[:, :, f].reshape((n, c) + self.out), src)

    def pitches(self, nc: int, dtype) -> tuple:
        """The positions of a row of U and of V: every channel's (in V, and the largest
        row offset), made a little longer so that no copy in U and no sum over V's rows
        writes just ahead of where it reads (`ALIASED`)."""
        found = self._pitches.get((nc, dtype))
        if found is None:
            item = np.dtype(dtype).itemsize
            least = nc * self.size
            shifts = [(r - p, off) for r, (p, off) in enumerate(self.cols) if off]
            for u_pitch in range(least, least + PAGE, 64 // item):  # (U's dtype: x's)
                if all((d * u_pitch - off) * item % PAGE not in ALIASED
                       for d, off in shifts):
                    break
            least += self.leads[-1]
            for v_pitch in range(least, least + PAGE, 8):  # (any dtype: 64 bytes)
                if all(-(j * v_pitch + lead) * item % PAGE not in ALIASED
                       and -(j * v_pitch + lead) * 8 % PAGE not in ALIASED
                       for j, lead in enumerate(self.leads[1:], 1)):
                    break
            if len(self._pitches) > 16:
                self._pitches.clear()
            found = self._pitches[(nc, dtype)] = (u_pitch, v_pitch)
        return found

    def views(self, u, v, n, c, mg) -> tuple:
        """(copies [(U's rows, their source)], views to zero, U [N, C, S, size], V [N, C,
        M/C * R, size], sums [(V's row, a shifted row)], per filter f the output
        positions among V's) over the buffers of one call."""
        nc, q = n * c, self.size
        ub, vb = u.itemsize, v.itemsize
        r = len(self.leads)
        copies, zeros = [], []
        for r0, count, src, first, src_step, step in self.runs:
            end = nc * q - max(first, first + (count - 1) * step)  # (the last channel's)
            copies.append((u[r0:r0 + count, :end], np.ndarray(
                (count, end), u.dtype, u, (src * u.shape[1] + first) * ub,
                ((src_step * u.shape[1] + step) * ub, ub))))
            zeros.append(u[r0:r0 + count, end:nc * q])  # (positions no output reads)
        row, span = self.row, self.span
        for k, columns in self.zeros:  # (after the copies: they read the input as it is)
            if q % row == 0:
                zeros.append(u[k, :nc * q].reshape(-1, row)[:, columns])
            else:  # (span is whole rows of positions)
                zeros.append(u[k, :nc * q].reshape(nc, q)[:, :span].reshape(
                    nc, span // row, row)[..., columns])
        # every position of U and V is written: the sums read whole runs, the positions
        # between the channels' outputs included (no garbage added)
        zeros.append(v[:, nc * q:])
        uv = np.ndarray((n, c, len(self.cols), q), u.dtype, u, 0,
                        (c * q * ub, q * ub, u.strides[0], ub))
        vv = np.ndarray((n, c, mg * r, q), v.dtype, v, 0,
                        (c * q * vb, q * vb, v.strides[0], vb))
        sums, cuts = [], []
        positions = (c * q * vb, q * vb) + tuple(t * vb for t in self.steps)
        for f in range(mg):  # (filters per group: 1 but for a channel multiplier)
            acc = v[f * r, :nc * q]
            sums += [(acc, v[f * r + j, lead:lead + nc * q])
                     for j, lead in enumerate(self.leads[1:], 1)]
            cuts.append(np.ndarray((n, c) + self.out, v.dtype, acc, 0, positions))
        return copies, zeros, uv, vv, sums, cuts


PAGE = 4096
# a copy or an addition over long runs whose destination lies this many bytes ahead of
# its source, modulo a page, runs ~15x slower here (the loads wait on the stores: "4K
# aliasing"; 4 to 12 bytes ahead: a [1, 272, 14, 14] depthwise's copies 16 -> 81 us when
# the scratch buffers happened to lie so)
ALIASED = range(1, 256)
