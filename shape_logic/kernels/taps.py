"""Kernel taps as contiguous slices: the padded input split by stride phase and flattened.

A window's tap (kernel offset a) at output position i reads the padded input at
i * s + a * d on every spatial axis. Split the padded input into its stride phases
(the positions p, p + s, p + 2s, ... for each p < s) and the tap reads phase
(a * d) % s at grid position i + (a * d) // s: a stride-1 shift. Flatten each phase's
grid row-major and the shift is a constant flat offset, so for every image and channel
a tap is one contiguous slice of length L over the flat grid (L = the flat index of the
last output + 1). The flat positions between output rows (grid columns beyond the
output's width) are computed and thrown away; in exchange every copy and elementwise
pass runs over long contiguous rows instead of one short row per output line, which is
what makes NumPy slow on small images (depthwise convolutions, pooling).

A strided 2-D plan with long output rows copies its taps row by row instead, into
columns of the output positions only (ExactPlan): no cut of the products afterwards.

The split costs one copy of the input (the padding is made in the same copy); with
stride 1 and nothing to pad, the input itself is the one phase (no copy). A plan depends
only on the geometry, so it is made once per input shape (cached).
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import product

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .scratch import scratch


@lru_cache(maxsize=512)
def tap_plan(sizes: tuple, kernel: tuple, strides: tuple, dilations: tuple, begin: tuple,
             out: tuple, channels: int = 0, filters: int = 0):
    """The plan for one geometry: RowPlan (no copy of short rows) when it applies and
    the input is not its own phase already, else TapPlan, or ExactPlan for a convolution
    of one group whose products per output position (`filters`) are at least half its
    column rows (`channels` x taps): the cut it saves is a copy of the products, its
    row-by-row copies cost more per column element (0: not a convolution of one group)."""
    plan = TapPlan(sizes, kernel, strides, dilations, begin, out)
    if not plan.identity and all(s == 1 for s in strides) and out[-1] <= sizes[-1]:
        return RowPlan(sizes, kernel, dilations, begin, out)
    if not plan.compact and len(out) == 2 and out[-1] >= EXACT_WIDTH and filters and \
            2 * filters >= channels * len(plan.taps):
        return ExactPlan(sizes, kernel, strides, dilations, begin, out)
    return plan


# a strided plan whose output rows are at least this long may copy its taps row by row
# into columns without the grid's extra columns (ExactPlan)
EXACT_WIDTH = 32


class TapPlan:
    """Where each tap of one window geometry lies in the flat phases (see the module)."""

    def __init__(self, sizes, kernel, strides, dilations, begin, out):
        self.out = tuple(out)
        # grid sizes: the output plus the farthest shift of a tap, per axis
        self.grid = tuple(o + (k - 1) * d // s
                          for o, k, d, s in zip(out, kernel, dilations, strides))
        self.size = int(np.prod(self.grid))
        step = [1] * len(self.grid)  # row-major strides of the flat grid
        for i in range(len(self.grid) - 2, -1, -1):
            step[i] = step[i + 1] * self.grid[i + 1]
        self.length = sum((o - 1) * t for o, t in zip(out, step)) + 1
        # (phase, flat offset) of every kernel offset, row-major over the kernel
        offsets = [[(a * d % s, a * d // s) for a in range(k)]
                   for k, d, s in zip(kernel, dilations, strides)]
        phases = sorted({tuple(p for p, _ in tap) for tap in product(*offsets)})
        index = {p: i for i, p in enumerate(phases)}
        self.taps = [(index[tuple(p for p, _ in tap)],
                      sum(sh * t for (_, sh), t in zip(tap, step)))
                     for tap in product(*offsets)]
        self.n_phases = len(phases)
        self.kernel = tuple(kernel)
        self.blocks = tap_blocks(kernel, strides, dilations, step, index)
        # the input is its own single phase: stride 1, no padding, no rows left over
        self.identity = all(s == 1 for s in strides) and tuple(sizes) == self.grid \
            and not any(begin)
        self.copies = [(i,) + phase_slices(sizes, self.grid, p, strides, begin)
                       for i, p in enumerate(phases)]
        # what of each phase's grid no input reaches: padding, filled (not the whole
        # grid: the input is most of it)
        self.fills = []
        for i, dst, _ in self.copies:
            if dst is None:
                self.fills.append((i, (Ellipsis,)))
                continue
            box = dst[1:]
            for j, (part, g) in enumerate(zip(box, self.grid)):
                for side in (slice(0, part.start), slice(part.stop, g)):
                    if side.start < side.stop:  # the box on the axes before, all after
                        self.fills.append((i, (Ellipsis,) + box[:j] + (side,)
                                           + (slice(None),) * (len(box) - j - 1)))
        self.copies = [c for c in self.copies if c[1] is not None]
        self.compact = self.grid == self.out  # no columns to throw away
        self.pitch = self.grid[-1]  # flat positions per grid row
        self.masks = []  # (see RowPlan): every tap reads padding where the input has none

    def split(self, x: np.ndarray, value, out: np.ndarray | None = None) -> np.ndarray:
        """The phases of x [N, C, *sizes]: [N, C, phases, grid size] (a scratch array, or
        x itself; or `out`, a view of that shape whose phases are each contiguous)."""
        n, c = x.shape[:2]
        if self.identity:
            if out is not None:
                np.copyto(out, x.reshape(n, c, 1, self.size))
                return out
            return np.ascontiguousarray(x).reshape(n, c, 1, self.size)
        flat = scratch("phases", (n, c, self.n_phases, self.size), x.dtype) if out is None \
            else out
        for i, where in self.fills:
            flat[:, :, i].reshape((n, c) + self.grid)[where] = value
        for i, dst, src in self.copies:
            flat[:, :, i].reshape((n, c) + self.grid)[dst] = x[src]
        return flat

    def tap(self, flat: np.ndarray, i: int) -> np.ndarray:
        """Tap i's input at every flat output position: a view [N, C, L]."""
        phase, offset = self.taps[i]
        return flat[:, :, phase, offset:offset + self.length]

    def copy_taps(self, flat: np.ndarray, cols: np.ndarray, value, lo: int = 0,
                  hi: int | None = None) -> None:
        """cols [N, C, taps, hi - lo] = every tap's input (padding included) at the flat
        output positions [lo, hi) (all L by default): one strided copy per block of
        taps (`tap_blocks`), not one per tap."""
        hi = self.length if hi is None else hi
        self._copy_blocks(flat, cols, lo, (hi - lo,), (1,))

    def _copy_blocks(self, flat: np.ndarray, cols: np.ndarray, start: int, positions: tuple,
                     apart: tuple) -> None:
        """cols, as [N, C, *kernel, *positions] = each block of taps (`tap_blocks`), one
        strided copy per block: its phase from flat position `start` (plus the block's
        offset) on, the `positions` axes `apart` flat positions apart."""
        n, c = cols.shape[:2]
        dst = np.reshape(cols, (n, c) + self.kernel + positions, copy=False)
        item = flat.itemsize
        contiguous = flat.flags.c_contiguous
        tail = tuple(t * item for t in apart)
        for phase, where, offset, counts, steps in self.blocks:
            shape = (n, c) + counts + positions
            strides = flat.strides[:2] + tuple(t * item for t in steps) + tail
            if contiguous:  # over the buffer: as_strided costs ~10 us a call
                taps = np.ndarray(shape, flat.dtype, flat,
                                  (phase * self.size + offset + start) * item, strides)
            else:  # some channels of several images
                taps = as_strided(flat[:, :, phase, offset + start:], shape, strides,
                                  writeable=False)
            np.copyto(dst[where], taps)  # (where's last slice spans the first position axis)

    def grid_length(self) -> int:
        """The flat positions of a grid buffer (products at the first L: `head`)."""
        return self.size

    def head(self, buf: np.ndarray) -> np.ndarray:
        return buf[..., :self.length]

    def cut(self, buf: np.ndarray) -> np.ndarray:
        """The output positions of a grid buffer [..., grid size]: a view [..., *out]."""
        grid = buf.reshape(buf.shape[:-1] + self.grid)
        return grid[(Ellipsis,) + tuple(slice(o) for o in self.out)]


class ExactPlan(TapPlan):
    """A 2-D TapPlan whose column matrices hold the output positions only: each block
    of taps is copied as [rows, width] views of the phases (rows of the grid's pitch,
    the output's width), so the products are the result itself, with no cut. The
    copies run over rows of `width` elements instead of one flat run, which pays when
    the rows are long and the products many against the columns: the cut was a copy of
    the whole result (squeezenet's first convolution, 3 -> 64 channels at 111 x 111, hot:
    822 -> 694 us; ShuffleNet's, 3 -> 24: 410 -> 385). Otherwise the copies lose: at 28
    wide (ShuffleNet's stride-2 depthwise 384 -> 473 us, Inception-v2's 3x3/2 806 ->
    832), at 40 (a depthwise 409 -> 503, 32 -> 64 channels 811 -> 858) and with many
    channels at 56 (64 -> 64 3x3/2: 3427 -> 3612)."""

    def __init__(self, *geometry):
        super().__init__(*geometry)
        self.length = self.out[0] * self.out[1]
        self.pitch = self.out[1]  # flat positions per output row
        self.compact = True

    def tap(self, flat, i):
        raise NotImplementedError("ExactPlan: a tap is not one slice (kernels wider than 1)")

    def copy_taps(self, flat: np.ndarray, cols: np.ndarray, value, lo: int = 0,
                  hi: int | None = None) -> None:
        """cols [N, C, taps, hi - lo] = every tap's input at the output positions
        [lo, hi), whole output rows."""
        hi = self.length if hi is None else hi
        width, row = self.out[1], self.grid[1]
        r0, r1 = lo // width, hi // width
        self._copy_blocks(flat, cols, r0 * row, (r1 - r0, width), (row, 1))

    def grid_length(self) -> int:
        return self.length

    def head(self, buf: np.ndarray) -> np.ndarray:
        return buf

    def cut(self, buf: np.ndarray) -> np.ndarray:
        return buf.reshape(buf.shape[:-1] + self.out)


def tap_blocks(kernel, strides, dilations, step, index) -> list:
    """The taps grouped by phase: [(phase, where, flat offset, counts, steps)], each
    block the taps whose kernel offset a has a * d % s = p on every axis. On one axis
    these offsets are a0, a0 + A, a0 + 2A, ... (A = s / gcd(s, d)) and their flat shifts
    grow by d / gcd(s, d) grid rows: in the column matrix the block is the strided view
    `where` of the kernel axes, in the phase a strided view of `counts` taps `steps`
    apart. So a strided convolution's taps are copied in one call per phase (7x7/2: 4
    copies, not 49; its Python and NumPy set-up per call was most of the copy's time
    for the first convolution of Inception and DenseNet)."""
    per_axis = []  # per axis: [(p, a0, count, A, shift of a0, shift step)]
    for k, s, d, t in zip(kernel, strides, dilations, step):
        g = math.gcd(s, d)
        axis = []
        for p in sorted({a * d % s for a in range(k)}):
            a0 = next(a for a in range(k) if a * d % s == p)
            count = len(range(a0, k, s // g))
            axis.append((p, a0, count, s // g, a0 * d // s * t, d // g * t))
        per_axis.append(axis)
    blocks = []
    for combo in product(*per_axis):
        phase = index[tuple(p for p, *_ in combo)]
        where = (slice(None), slice(None)) + tuple(
            slice(a0, a0 + (n - 1) * big + 1, big) for _, a0, n, big, _, _ in combo) + \
            (slice(None),)
        blocks.append((phase, where, sum(c[4] for c in combo),
                       tuple(c[2] for c in combo), tuple(c[5] for c in combo)))
    return blocks


def phase_slices(sizes, grid, phase, strides, begin):
    """(grid index, input index) of the input positions that fall in a phase's grid: grid
    position g is padded position g * s + p, input position g * s + p - begin; (None,
    None) when the phase sees only padding."""
    dst, src = [Ellipsis], [Ellipsis]
    for n, g, p, s, b in zip(sizes, grid, phase, strides, begin):
        lo = max(0, -(-(b - p) // s))  # the first g with g * s + p - b >= 0
        hi = min(g, (n - 1 + b - p) // s + 1)  # one past the last with ... < n
        if hi <= lo:
            return None, None
        dst.append(slice(lo, hi))
        start = lo * s + p - b
        src.append(slice(start, start + (hi - lo - 1) * s + 1, s))
    return tuple(dst), tuple(src)


class RowPlan:
    """Stride 1 everywhere: the padded input without its padding columns. Each row of
    the flat grid is an input row as it is (pitch P = the input's width), so splitting
    copies whole planes and an output as wide as the input needs no unflattening; a tap
    reaching left of column 0 or right of the last column reads the neighbouring row
    instead of padding, and those output columns are set to the padding value after
    the tap is copied (a few columns per tap)."""

    def __init__(self, sizes, kernel, dilations, begin, out):
        self.out = tuple(out)
        lead = len(sizes) - 1
        pitch = sizes[-1]
        # leading axes: padded as in TapPlan (the window's reach); the last axis: wrapped
        self.rows = tuple(o + (k - 1) * d for o, k, d in
                          zip(out[:lead], kernel[:lead], dilations[:lead]))
        step = [pitch] * (lead + 1)  # flat strides of the leading axes, then 1
        step[-1] = 1
        for i in range(lead - 2, -1, -1):
            step[i] = step[i + 1] * self.rows[i + 1]
        margin = begin[-1]  # room to read left of the first column
        offsets = [[a * d * t for a in range(k)]
                   for k, d, t in zip(kernel[:lead], dilations[:lead], step)]
        self.taps = [(0, margin + sum(tap[:-1]) + tap[-1] * dilations[-1] - begin[-1])
                     for tap in product(*offsets, range(kernel[-1]))]
        # the taps as one strided view [*kernel, L] of a channel's flat grid (tap 0 at
        # offset 0): copying them is one NumPy call
        self.kernel = tuple(kernel)
        self.tap_strides = tuple(d * t for d, t in zip(dilations, step))
        # per offset b on the last axis (taps b, b + k, b + 2k, ...): the output columns
        # whose tap reads outside the row, left of it or right of it
        self.masks = []
        for b in range(kernel[-1]):
            shift = b * dilations[-1] - begin[-1]
            for cols in (slice(0, min(out[-1], -shift)),
                         slice(max(0, pitch - shift), out[-1])):
                if cols.start < cols.stop:
                    self.masks.append((b, kernel[-1], cols))
        # the output's rows: the first leading axis as the output, the others as the grid
        out_rows = out[0] * int(np.prod(self.rows[1:])) if lead else 1
        self.length = out_rows * pitch
        self.buffer = (out[:1] + self.rows[1:] + (pitch,)) if lead else (pitch,)
        self.body = body = int(np.prod(self.rows)) * pitch
        self.size = max(margin + body, max(o for _, o in self.taps) + self.length)
        self.start = margin
        self.pitch = pitch
        # where the input goes: leading axis i at rows [begin, begin + size) of the grid
        self.dst = tuple(slice(min(b, r), min(b + n, r))
                         for b, n, r in zip(begin[:lead], sizes[:lead], self.rows))
        self.src = tuple(slice(0, d.stop - d.start) for d in self.dst)
        self.compact = self.buffer == self.out
        self.dst_index = (Ellipsis,) + self.dst + (slice(None),)
        self.src_index = (Ellipsis,) + self.src + (slice(None),)
        # the flat positions [lo, hi) of the input when its rows are one block (one
        # leading axis, every input row used), else None
        self.data = None
        if lead <= 1 and all(s.stop - s.start == n for s, n in zip(self.src, sizes[:lead])):
            first = self.start + (self.dst[0].start * pitch if lead else 0)
            self.data = (first, first + int(np.prod(sizes)))

    def split(self, x: np.ndarray, value, out: np.ndarray | None = None) -> np.ndarray:
        n, c = x.shape[:2]
        flat = scratch("phases", (n, c, 1, self.size), x.dtype) if out is None else out
        if self.data is None:
            flat[...] = value
            body = flat[:, :, 0, self.start:self.start + self.body]
            body.reshape((n, c) + self.rows + (self.pitch,))[self.dst_index] = \
                x[self.src_index]
            return flat
        lo, hi = self.data  # the input is one block per channel: pad around it only
        flat[..., :lo] = value
        flat[..., hi:] = value
        flat[:, :, 0, lo:hi] = x.reshape(n, c, hi - lo)
        return flat

    def tap(self, flat: np.ndarray, i: int) -> np.ndarray:
        _, offset = self.taps[i]
        return flat[:, :, 0, offset:offset + self.length]

    def copy_taps(self, flat: np.ndarray, cols: np.ndarray, value, lo: int = 0,
                  hi: int | None = None) -> None:
        """cols [N, C, taps, hi - lo] = every tap's input (padding included) at the flat
        output positions [lo, hi), whole rows (lo and hi multiples of the pitch)."""
        n, c = cols.shape[:2]
        hi = self.length if hi is None else hi
        item = flat.itemsize
        shape = (n, c) + self.kernel + (hi - lo,)
        strides = flat.strides[:2] + tuple(t * item for t in self.tap_strides) + (item,)
        if flat.flags.c_contiguous:  # over the buffer: as_strided costs ~10 us a call
            taps = np.ndarray(shape, flat.dtype, flat, lo * item, strides)
        else:  # some channels of several images
            taps = as_strided(flat[:, :, 0, lo:], shape, strides, writeable=False)
        np.copyto(cols.reshape(shape), taps)
        for b, k, columns in self.masks:
            taps = cols[:, :, b::k]
            taps.reshape(taps.shape[:3] + (-1, self.pitch))[..., columns] = value

    def grid_length(self) -> int:
        return self.length

    def head(self, buf: np.ndarray) -> np.ndarray:
        return buf

    def cut(self, buf: np.ndarray) -> np.ndarray:
        grid = buf.reshape(buf.shape[:-1] + self.buffer)
        return grid[(Ellipsis,) + tuple(slice(o) for o in self.out)]
