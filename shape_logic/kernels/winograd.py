"""Conv by Winograd's minimal filtering F(2x2, 3x3) or F(4x4, 3x3) (Lavin & Gray 2016;
winograd_transforms.py), for 3x3 kernels, stride 1, no dilation, one group, two spatial
axes.

Each m x m block of output positions (a tile) is A^T [(G g G^T) * (B^T d B)] A, d the
tile's (m + 2) x (m + 2) window of the padded input and g a 3x3 filter: (m + 2)^2
products per tile and pair of (channel, filter) instead of 9 m^2. Summed over the input
channels they are (m + 2)^2 matrix products [M, C] @ [C, tiles] (one batched matmul:
BLAS), the filters' transform U = G g G^T made once per weight array.

Layout, so that every transform pass runs over long contiguous runs (NumPy is slow on
short rows and strided operands):
- the padded input split into its m x m phases (row and column positions modulo m)
  [m, m, N*C, ty + 1, tx + 1] (one copy of the input; ty, tx the tiles down and across,
  the phases one wider): a tile's window row k is phase row k % m shifted by k // m
  rows, its column l phase column l % m shifted by l // m, so with rows of tx + 1
  columns every shift is a flat offset;
- the row transform R [m + 2, m, N*C, rows, tx + 1] (B^T over the window rows) and the
  column transform V [m + 2, m + 2, N, C (+ 1), rows * (tx + 1)] (B^T over the columns,
  one flat run per row transform and column phase), whose last column of every tile row
  is junk (the next row's first tile), computed and thrown away like the tap grids'
  (taps.py);
- the products Mt [m + 2, m + 2, M, rows * (tx + 1)] per image, A^T over the tile rows
  then the columns, flat, then one strided copy into the result's rows and columns of
  each phase (result[:, :, p::m, q::m]), ragged edges clipped.

The bias is one more row of V (ones in V[1, 1], zeros elsewhere) against one more
column of U (the bias in U[1, 1]): A^T's second column is all ones, so that product
adds the bias to every output and no pass over the result does.

Tile rows are done in blocks (BLOCK_BYTES of V) so that R, V and Mt stay in the cache;
the intra-op threads take whole blocks, or, when there are fewer than two tile rows a
part or U is large, ranges of filters over one V. Conv takes this path where `choice`
finds F4 or F2 faster than im2col (measured per shape: docs/DESIGN.md).
"""
from __future__ import annotations

import numpy as np

from . import workers
from .Relu import zeros
from .scratch import scratch
from .winograd_transforms import F2, F4

# V of one block of tile rows, at most: F2 the L2's size; F4 twice that, its blocks
# having fewer columns per tile row (BLAS at 43 GMAC/s on 45 columns: 256 -> 256 at
# 56x56 in blocks of 3 tile rows; ~60 on 105 or more)
BLOCK_BYTES = {2: 2 << 20, 4: 4 << 20}
# the parts take whole blocks of tile rows while U is at most ROWS_U_BYTES (each part
# reads all of U per block), else ranges of filters over one V of at most SHARED_V_BYTES
# (each reads its share of U), made before the parts
ROWS_U_BYTES = 4 << 20
SHARED_V_BYTES = 8 << 20


def weights(w: np.ndarray, bias, dtype, f=F2) -> np.ndarray:
    """U [(m + 2)^2, M, C (+ 1)] = G g G^T for every filter g of w [M, C, 3, 3], in
    float64 then `dtype`; with a bias, one more column: the bias in tile element (1, 1),
    zero elsewhere."""
    m, c = w.shape[:2]
    a = f.size
    # kron(G, G) [a * a, 9] against every filter's 9 taps: one BLAS product (an einsum
    # over the same took 0.9-1.3 s for 512 x 512 filters, this 55-80 ms)
    u = (np.kron(f.G, f.G) @ w.reshape(m * c, 9).astype(np.float64).T).reshape(a * a, m, c)
    if bias is not None:
        extra = np.zeros((a * a, m, 1))
        extra[a + 1, :, 0] = bias
        u = np.concatenate([u, extra], axis=2)
    return np.ascontiguousarray(u.astype(dtype))


def winograd_plan(sizes, kernel, strides, dilations, begin, out, c: int, m: int,
                  group: int, dtype):
    """A WinogradPlan when F(2, 3) or F(4, 3) applies and pays (`choice`), else None."""
    if len(out) != 2 or tuple(kernel) != (3, 3) or tuple(strides) != (1, 1) or \
            tuple(dilations) != (1, 1) or group != 1 or \
            np.dtype(dtype) not in (np.float32, np.float64):
        return None
    f = choice(c, m, out)
    return None if f is None else WinogradPlan(sizes, begin, out, f)


def choice(c: int, m: int, out):
    """F4, F2 or None (im2col, Conv.py) for c channels, m filters and `out` output
    sizes: the first whose tiles waste at most MAX_WASTE and whose `saving` is at least
    its MIN_SAVING (set from Conv alone on the light models' shapes: docs/DESIGN.md)."""
    for f in (F4, F2):
        waste = tiled(out, f.m) / (out[0] * out[1])
        if waste <= MAX_WASTE and saving(c, m, waste, f) >= MIN_SAVING[f.m]:
            return f
    return None


def saving(c: int, m: int, waste: float, f) -> float:
    """The multiply-adds the products save per output position and (channel, filter),
    9 - (m + 2)^2 / m^2 w (w: the tiles' positions, junk columns and ragged edges
    included, over the output's), summed over the channels and filters, per element of
    the transforms' passes: F2 6 per output position and channel, 7 per filter; F4
    11.9 and 9.1 (190 and 146 per 16 outputs)."""
    per_c, per_m = (6, 7) if f.m == 2 else (11.9, 9.1)
    return (9 - f.size ** 2 / f.m ** 2 * waste) * c * m / (per_c * c + per_m * m)


def tiled(out, m: int = 2) -> int:
    """The output positions m x m tiles compute for output sizes `out`, junk included."""
    ty, tx = -(-out[0] // m), -(-out[1] // m)
    return m * m * ty * (tx + 1)


# F2: 14x14 1.14, 13x13 1.33, 7x7 1.63; F4: 56x56 1.07, 28x28 1.14, 27x27 1.23, 14x14 1.63
MAX_WASTE = 1.15
# F4: 128 -> 256 at 56x56 56, 256 -> 256 80, 512 -> 512 at 28x28 157, 128 -> 128 39;
# F2 at 14x14: 256 -> 256 87, 192 -> 256 74, 192 -> 192 65, 160 -> 192 59, 128 -> 128 44
MIN_SAVING = {4: 54.0, 2: 60.0}


class WinogradPlan:
    """The tiles of one geometry: input [N, C, H, W], pads `begin` before, output `out`,
    tiles of F(f.m, 3) (winograd_transforms.py)."""

    def __init__(self, sizes, begin, out, f=F2):
        (h, w), (top, left), (oh, ow) = sizes, begin, out
        self.f, self.m, self.size = f, f.m, f.size
        self.out = (oh, ow)
        self.ty, self.tx = -(-oh // f.m), -(-ow // f.m)  # tiles down and across
        self.pitch = self.tx + 1  # a phase row: the tiles across and one junk column
        # per phase (r, s): (phase rows [y0, y1), columns [x0, x1)) that the input
        # fills, and its first input row and column; the rest of the phase is padding
        self.copies = []
        for r in range(f.m):
            for s in range(f.m):
                y0, y1 = _span(r, top, h, self.ty + 1, f.m)
                x0, x1 = _span(s, left, w, self.pitch, f.m)
                self.copies.append((r, s, y0, y1, x0, x1, f.m * y0 + r - top,
                                    f.m * x0 + s - left))

    def blocks(self, n: int, c: int, itemsize: int, parts: int = 1) -> list[int]:
        """Bounds of the blocks of tile rows, of about equal size: V of a block at most
        BLOCK_BYTES, their count a multiple of `parts` where the rows allow it."""
        rows = max(1, BLOCK_BYTES[self.m] // self.v_bytes(n, c, 1, itemsize))
        count = min(self.ty, -(-(-(-self.ty // rows)) // parts) * parts)
        return [self.ty * i // count for i in range(count + 1)]

    def v_bytes(self, n: int, c: int, rows: int, itemsize: int) -> int:
        """The bytes of V for `rows` tile rows."""
        return self.size ** 2 * n * (c + 1) * rows * self.pitch * itemsize

    def phases(self, x: np.ndarray) -> np.ndarray:
        """The padded input's phases [m, m, N*C, ty + 1, tx + 1] (scratch)."""
        n, c, h, w = x.shape
        m = self.m
        ph = scratch("winograd phases", (m, m, n * c, self.ty + 1, self.pitch), x.dtype)
        for r, s, y0, y1, x0, x1, i0, j0 in self.copies:
            dst = ph[r, s]
            # the padding around the input's box (the buffer is shared: every call)
            dst[:, :y0] = 0
            dst[:, y1:] = 0
            dst[:, y0:y1, :x0] = 0
            dst[:, y0:y1, x1:] = 0
            if y1 > y0 and x1 > x0:
                np.copyto(np.reshape(dst[:, y0:y1, x0:x1], (n, c, y1 - y0, x1 - x0),
                                     copy=False),
                          x[:, :, i0:i0 + m * (y1 - y0) - m + 1:m,
                            j0:j0 + m * (x1 - x0) - m + 1:m])
        return ph

    def input_block(self, ph: np.ndarray, n: int, c: int, a: int, z: int,
                    ones: bool) -> np.ndarray:
        """V [(m + 2)^2, N, C (+ 1), (z - a) * pitch] for tile rows [a, z): B^T d B of
        every tile (a scratch array; with `ones`, the bias row: ones in tile element
        (1, 1), zeros in the others)."""
        m, size, f = self.m, self.size, self.f
        rows, pitch = z - a, self.pitch
        span = rows * pitch
        planes = n * c
        # R: B^T over the window rows, each a phase shifted by whole rows; one spare
        # element after each (row transform, column phase) run for the column shift
        r = scratch("winograd rows", (size, m, planes * span + 1), ph.dtype)
        r[:, :, -1] = 0
        f.input([ph[k % m, :, :, a + k // m:z + k // m] for k in range(size)],  # [m, NC, ..]
                [r[i, :, :-1].reshape(m, planes, rows, pitch) for i in range(size)])
        v = scratch("winograd tiles", (size, size, n, c + ones, span), ph.dtype)
        # B^T over the columns, all the row transforms at once: column l is column
        # phase l % m shifted by l // m
        f.input([np.reshape(r[:, k % m, k // m:k // m + planes * span], (size, n, c * span))
                 for k in range(size)],
                [np.reshape(v[:, j, :, :c], (size, n, c * span), copy=False)
                 for j in range(size)])
        if ones:
            v[:, :, :, c] = 0
            v[1, 1, :, c] = 1
        return v.reshape(size * size, n, c + ones, span)

    def output_block(self, mt: np.ndarray, result: np.ndarray, a: int, z: int,
                     relu: bool) -> None:
        """result [N, M', out rows, out cols] (filters already chosen) at the output rows
        of tile rows [a, z) = A^T m A of the products mt [(m + 2)^2, N, M', (z - a) *
        pitch], and its Relu when `relu` (in the copy into the result)."""
        m, size, f = self.m, self.size, self.f
        n, filters = result.shape[:2]
        rows, pitch = z - a, self.pitch
        flat = n * filters * rows * pitch
        mt = mt.reshape(size, size, flat)
        # A^T over the tile rows (s[p]), then over the columns (y[q, p]): flat runs, then
        # one strided copy per output phase (NumPy's strided loops are ~3x slower than
        # flat ones: 166 -> 71 us for F2 on [64, 56, 56])
        s = scratch("winograd sums", (m, size, flat), mt.dtype)
        f.output([mt[i] for i in range(size)], [s[p] for p in range(m)])
        y = scratch("winograd out", (m, m, flat), mt.dtype)
        f.output([s[:, j] for j in range(size)], [y[q] for q in range(m)])
        oh, ow = self.out
        for p in range(m):
            # the output rows m t + p of these tiles, the columns m t + q
            ny = max(0, min(oh, m * z + p) - (m * a + p) + m - 1) // m
            for q in range(m):
                nx = max(0, ow - q + m - 1) // m
                if ny == 0 or nx == 0:  # (a negative slice end would wrap around)
                    continue
                dst = result[:, :, m * a + p:m * (a + ny - 1) + p + 1:m,
                             q:m * (nx - 1) + q + 1:m]
                src = y[q, p].reshape(n, filters, rows, pitch)[..., :ny, :nx]
                if relu:
                    np.maximum(src, zeros(src.size, src.dtype).reshape(src.shape), out=dst)
                else:
                    np.copyto(dst, src)


def _span(phase: int, before: int, size: int, count: int, m: int) -> tuple[int, int]:
    """The phase positions t in [0, count) whose padded position m t + phase is an
    input position: [t0, t1) (empty: t0 >= t1)."""
    t0 = max(0, -(-(before - phase) // m))
    t1 = min(count, -(-(before + size - phase) // m))
    return t0, max(t0, t1)


def run(plan: WinogradPlan, x: np.ndarray, u: np.ndarray, result: np.ndarray, dups,
        addend, relu: bool) -> None:
    """result [N, M, *out] = the convolution of x by the transformed weights u [(m +
    2)^2, M, C (+ 1: the bias)], then the equal filters' copies (`dups`, Conv.filters), the
    addend and the Relu; in parts over the intra-op threads."""
    n, c = x.shape[:2]
    m = u.shape[1]
    ones = u.shape[2] > c
    ph = plan.phases(x)
    tiles = n * plan.ty * plan.pitch
    parts = workers.worth(plan.size ** 2 * (m * c + c + m) * tiles)
    # by filters over one V when there are few tile rows, or when U is large and V is
    # not (each part then reads its share of U, not all of it per block)
    by_filters = parts > 1 and (plan.ty < 2 * parts or (
        u.nbytes > ROWS_U_BYTES and plan.v_bytes(n, c, plan.ty, x.itemsize) <= SHARED_V_BYTES))
    bounds = plan.blocks(n, c, x.itemsize, 1 if by_filters else parts)
    early = relu and addend is None  # the Relu in the products' copy into the result
    late = relu and not early

    def rows(b0: int, b1: int) -> None:  # blocks [b0, b1) of tile rows, all filters
        for a, z in zip(bounds[b0:b1], bounds[b0 + 1:b1 + 1]):
            v = plan.input_block(ph, n, c, a, z, ones)
            products(plan, v, u, result, a, z, early)
        lo, hi = plan.m * bounds[b0], min(plan.out[0], plan.m * bounds[b1])
        finish(result[:, :, lo:hi], dups, None if addend is None else addend[:, :, lo:hi],
               late)

    blocks = len(bounds) - 1
    if parts == 1:
        rows(0, blocks)
    elif not by_filters:  # whole blocks of tile rows per part
        cut = [blocks * p // parts for p in range(parts + 1)]
        workers.parallel(lambda p: rows(cut[p], cut[p + 1]), parts)
    else:  # one V (made here), ranges of filters per part
        v = plan.input_block(ph, n, c, 0, plan.ty, ones)
        step = -(-(-(-m // parts)) // 8) * 8  # filters a part, a multiple of 8

        def filters(p: int) -> None:
            r0, r1 = p * step, min(m, (p + 1) * step)
            products(plan, v, u[:, r0:r1], result[:, r0:r1], 0, plan.ty, early)
            if not dups:  # (equal filters' copies may cross parts: after)
                finish(result[:, r0:r1], [], None if addend is None else
                       addend[:, r0:r1], late)

        workers.parallel(filters, -(-m // step))
        if dups:
            finish(result, dups, addend, late)


def products(plan: WinogradPlan, v: np.ndarray, u: np.ndarray, result: np.ndarray,
             a: int, z: int, relu: bool) -> None:
    """The products of tile rows [a, z) for the filters of u, into result's rows."""
    n, m = result.shape[:2]
    mt = scratch("winograd products", (u.shape[0], n, m, v.shape[-1]), v.dtype)
    for i in range(n):  # one batched product per image: (m + 2)^2 BLAS calls
        np.matmul(u, v[:, i], out=mt[:, i])
    plan.output_block(mt, result, a, z, relu)


def finish(dst: np.ndarray, dups, addend, relu: bool) -> None:
    """Equal filters' channels copied from the one they repeat (the bits BLAS gives a
    row depend on its place in a tile), then the addend and the Relu, in place."""
    for _, same, row in dups:
        dst[:, same] = dst[:, row]
    if addend is not None:
        np.add(dst, addend, out=dst)
    if relu:
        np.maximum(dst, zeros(dst.size, dst.dtype).reshape(dst.shape), out=dst)
