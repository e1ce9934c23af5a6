"""Conv by Winograd's minimal filtering F(2x2, 3x3) (Lavin & Gray 2016), for 3x3
kernels, stride 1, no dilation, one group, two spatial axes.

Each 2x2 block of output positions (a tile) is A^T [(G g G^T) * (B^T d B)] A, d the
tile's 4x4 window of the padded input and g a 3x3 filter: 16 products per tile and pair
of (channel, filter) instead of the 36 of a direct convolution. Summed over the input
channels the 16 products are 16 matrix products [M, C] @ [C, tiles] (one batched
matmul: BLAS), the filters' transform U = G g G^T made once per weight array. The
transforms hold only 0, +-1 (B^T, A^T) and are a few additions and subtractions each.

Layout, so that every addition runs over long contiguous runs (NumPy is slow on short
rows and strided operands):
- the padded input split into its four (row, column) parity phases [2, 2, N*C, ty + 1,
  tx + 1] (one copy of the input; ty, tx the tiles down and across, the phases one
  wider): a tile's window row k is phase row k % 2 shifted by k // 2 rows, its column
  l phase column l % 2 shifted by l // 2, so with rows of tx + 1 columns every shift is
  a flat offset;
- the row transform R [4, 2, N*C, rows, tx + 1] (B^T over the window rows) and the
  column transform V [4, 4, N, C (+ 1), rows * (tx + 1)] (B^T over the columns, one flat
  run per row transform and column phase), whose last column of every tile row is junk
  (the next row's first tile), computed and thrown away like the tap grids' (taps.py);
- the products Mt [4, 4, M, rows * (tx + 1)] per image, the output transform's first
  stage S [2, 4, M, ...] flat, the second written into the result's rows of parity p
  and columns of parity q (result[:, :, p::2, q::2]), ragged edges clipped.

The bias is one more row of V (ones in V[1, 1], zeros elsewhere) against one more
column of U (the bias in U[1, 1]): A^T's second column is all ones, so that product
adds the bias to every output and no pass over the result does.

Tile rows are done in blocks (BLOCK_BYTES of V) so that R, V and Mt stay in the cache;
the intra-op threads take whole blocks, or, when there are fewer tile rows than parts,
ranges of filters over one V.
"""
from __future__ import annotations

import numpy as np

from . import workers
from .Relu import zeros
from .scratch import scratch

# G, A^T of F(2, 3) (B^T is written out in `row_transform`): exact in binary
G = np.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]])
BLOCK_BYTES = 2 << 20  # V of one block of tile rows, at most (the L2's size)
# the parts take whole blocks of tile rows while U is at most this (each part reads all
# of U), else ranges of filters over one V (each reads its share of U)
ROWS_U_BYTES = 4 << 20


def weights(w: np.ndarray, bias, dtype) -> np.ndarray:
    """U [16, M, C (+ 1)] = G g G^T for every filter g of w [M, C, 3, 3], in float64 then
    `dtype`; with a bias, one more column: the bias in U[5] (tile element (1, 1)), zero
    elsewhere."""
    m, c = w.shape[:2]
    u = np.einsum("ik,mckl,jl->ijmc", G, w.astype(np.float64), G).reshape(16, m, c)
    if bias is not None:
        extra = np.zeros((16, m, 1))
        extra[5, :, 0] = bias
        u = np.concatenate([u, extra], axis=2)
    return np.ascontiguousarray(u.astype(dtype))


def winograd_plan(sizes, kernel, strides, dilations, begin, out, c: int, m: int,
                  group: int, dtype):
    """A WinogradPlan when F(2x2, 3x3) applies and pays (`pays`), else None."""
    if len(out) != 2 or tuple(kernel) != (3, 3) or tuple(strides) != (1, 1) or \
            tuple(dilations) != (1, 1) or group != 1 or \
            np.dtype(dtype) not in (np.float32, np.float64) or not pays(c, m, out):
        return None
    return WinogradPlan(sizes, begin, out)


def pays(c: int, m: int, out) -> bool:
    """Whether F(2x2, 3x3) is faster than im2col (Conv.py) for c channels, m filters
    and `out` output sizes: the multiply-adds the products save, 9 - 4 w per output
    position and (channel, filter) (w: the tiles' positions, junk columns and ragged
    edges included, over the output's), against the transforms' element operations,
    24 per tile position and channel, 28 per filter (Conv alone on the light models'
    3x3 convolutions, Relu fused, hot, median of 3 min of 10-30, alternated, 1 / 2
    threads: 256 -> 256 at 56x56 0.69 / 0.83 of im2col's time, 512 -> 512 at 28x28
    0.84 / 0.76, at 14x14 0.75 / 0.79, 256 -> 256 at 14x14 0.83 / 0.90, 128 -> 256 at
    56x56 0.81 / 0.87; but 64 -> 64 at 56x56 0.83 / 1.04, 128 -> 128 at 28x28 0.80 /
    1.10, 96 -> 96 at 28x28 0.87 / 1.24, any 13x13 or 7x7 1.05-1.4, SqueezeNet's
    expands 1.4-1.9, DenseNet's 128 -> 32 1.15-2: docs/DESIGN.md)."""
    waste = tiled(out) / (out[0] * out[1])
    saved = (9 - 4 * waste) * c * m / (24 * c + 28 * m)
    return waste <= MAX_WASTE and saved >= MIN_SAVING


def tiled(out) -> int:
    """The output positions the tiles compute for output sizes `out`, junk included."""
    ty, tx = -(-out[0] // 2), -(-out[1] // 2)
    return 4 * ty * (tx + 1)


MAX_WASTE = 1.15  # 14x14: 1.14, 13x13: 1.33, 7x7: 1.63
MIN_SAVING = 15.0  # 128 -> 256: 15.5, 256 -> 256: 21.8 (at 14x14), 128 -> 128: 10.9


class WinogradPlan:
    """The tiles of one geometry: input [N, C, H, W], pads `begin` before, output `out`."""

    def __init__(self, sizes, begin, out):
        (h, w), (top, left), (oh, ow) = sizes, begin, out
        self.out = (oh, ow)
        self.ty, self.tx = -(-oh // 2), -(-ow // 2)  # tiles down and across
        self.pitch = self.tx + 1  # a phase row: the tiles across and one junk column
        # per phase (r, s): (phase rows [y0, y1), columns [x0, x1)) that the input
        # fills, and its first input row and column; the rest of the phase is padding
        self.copies = []
        for r in range(2):
            for s in range(2):
                y0, y1 = _span(r, top, h, self.ty + 1)
                x0, x1 = _span(s, left, w, self.pitch)
                self.copies.append((r, s, y0, y1, x0, x1, 2 * y0 + r - top,
                                    2 * x0 + s - left))

    def blocks(self, n: int, c: int, itemsize: int) -> list[int]:
        """Bounds of the blocks of tile rows: V of a block at most BLOCK_BYTES."""
        per_row = 16 * n * (c + 1) * self.pitch * itemsize
        rows = max(1, BLOCK_BYTES // per_row)
        return list(range(0, self.ty, rows)) + [self.ty]

    def phases(self, x: np.ndarray) -> np.ndarray:
        """The padded input's parity phases [2, 2, N*C, ty + 1, tx + 1] (scratch)."""
        n, c, h, w = x.shape
        ph = scratch("winograd phases", (2, 2, n * c, self.ty + 1, self.pitch), x.dtype)
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
                          x[:, :, i0:i0 + 2 * (y1 - y0) - 1:2, j0:j0 + 2 * (x1 - x0) - 1:2])
        return ph

    def input_block(self, ph: np.ndarray, n: int, c: int, a: int, z: int,
                    ones: bool) -> np.ndarray:
        """V [16, N, C (+ 1), (z - a) * pitch] for tile rows [a, z): B^T d B of every
        tile (a scratch array; with `ones`, the bias row: ones in V[5], zeros else)."""
        rows, pitch = z - a, self.pitch
        span = rows * pitch
        planes = n * c
        # R: B^T over the window rows, each a phase shifted by whole rows; one spare
        # element after each (row transform, column phase) run for the column shift
        r = scratch("winograd rows", (4, 2, planes * span + 1), ph.dtype)
        r[:, :, -1] = 0
        d = [ph[k % 2, :, :, a + k // 2:z + k // 2] for k in range(4)]  # [2, NC, rows, pitch]
        out = [r[i, :, :-1].reshape(2, planes, rows, pitch) for i in range(4)]
        row_transform(d, out)
        v = scratch("winograd tiles", (4, 4, n, c + ones, span), ph.dtype)
        # B^T over the columns, all four row transforms at once: column l is column
        # phase l % 2 shifted by l // 2
        e = [np.reshape(r[:, k % 2, k // 2:k // 2 + planes * span], (4, n, c * span))
             for k in range(4)]
        row_transform(e, [np.reshape(v[:, j, :, :c], (4, n, c * span), copy=False)
                          for j in range(4)])
        if ones:
            v[:, :, :, c] = 0
            v[1, 1, :, c] = 1
        return v.reshape(16, n, c + ones, span)

    def output_block(self, mt: np.ndarray, result: np.ndarray, a: int, z: int,
                     relu: bool) -> None:
        """result [N, M', out rows, out cols] (filters already chosen) at the output rows
        of tile rows [a, z) = A^T m A of the products mt [16, N, M', (z - a) * pitch],
        and its Relu when `relu` (in the copy into the result)."""
        n, m = result.shape[:2]
        rows, pitch = z - a, self.pitch
        flat = n * m * rows * pitch
        mt = mt.reshape(4, 4, flat)
        s = scratch("winograd sums", (2, 4, flat), mt.dtype)
        # A^T = [1, 1, 1, 0], [0, 1, -1, -1] over the tile rows (s[p]), then over the
        # columns (y[q, p]): flat runs, then one strided copy per output parity (NumPy's
        # strided loops are ~3x slower than flat ones: 166 -> 71 us for [64, 56, 56])
        np.add(mt[0], mt[1], out=s[0])
        np.add(s[0], mt[2], out=s[0])
        np.subtract(mt[1], mt[2], out=s[1])
        np.subtract(s[1], mt[3], out=s[1])
        y = scratch("winograd out", (2, 2, flat), mt.dtype)
        np.add(s[:, 0], s[:, 1], out=y[0])
        np.add(y[0], s[:, 2], out=y[0])
        np.subtract(s[:, 1], s[:, 2], out=y[1])
        np.subtract(y[1], s[:, 3], out=y[1])
        oh, ow = self.out
        for p in range(2):
            ny = (min(oh, 2 * z + p) - (2 * a + p) + 1) // 2  # output rows 2t + p here
            for q in range(2):
                nx = (ow - q + 1) // 2
                dst = result[:, :, 2 * a + p:2 * a + p + 2 * ny - 1:2, q:q + 2 * nx - 1:2]
                src = y[q, p].reshape(n, m, rows, pitch)[..., :ny, :nx]
                if relu:
                    np.maximum(src, zeros(src.size, src.dtype).reshape(src.shape), out=dst)
                else:
                    np.copyto(dst, src)


def row_transform(d: list, out: list) -> None:
    """out = B^T d for d = the 4 rows (or columns) of the windows: d0 - d2, d1 + d2,
    d2 - d1, d1 - d3."""
    np.subtract(d[0], d[2], out=out[0])
    np.add(d[1], d[2], out=out[1])
    np.subtract(d[2], d[1], out=out[2])
    np.subtract(d[1], d[3], out=out[3])


def _span(parity: int, before: int, size: int, count: int) -> tuple[int, int]:
    """The phase positions t in [0, count) whose padded position 2t + parity is an
    input position: [t0, t1) (empty: t0 >= t1)."""
    t0 = max(0, -(-(before - parity) // 2))
    t1 = min(count, (before + size - parity + 1) // 2)
    return t0, max(t0, t1)


def run(plan: WinogradPlan, x: np.ndarray, u: np.ndarray, result: np.ndarray, dups,
        addend, relu: bool) -> None:
    """result [N, M, *out] = the convolution of x by the transformed weights u [16, M,
    C (+ 1: the bias)], then the equal filters' copies (`dups`, Conv.filters), the
    addend and the Relu; in parts over the intra-op threads."""
    n, c = x.shape[:2]
    m = u.shape[1]
    ones = u.shape[2] > c
    ph = plan.phases(x)
    bounds = plan.blocks(n, c, x.itemsize)
    tiles = n * plan.ty * plan.pitch
    parts = workers.worth(16 * m * c * tiles + 16 * (c + m) * tiles)
    early = relu and addend is None  # the Relu in the products' copy into the result
    late = relu and not early

    def rows(b0: int, b1: int) -> None:  # blocks [b0, b1) of tile rows, all filters
        for a, z in zip(bounds[b0:b1], bounds[b0 + 1:b1 + 1]):
            v = plan.input_block(ph, n, c, a, z, ones)
            products(plan, v, u, result, a, z, early)
        lo, hi = 2 * bounds[b0], min(plan.out[0], 2 * bounds[b1])
        finish(result[:, :, lo:hi], dups, None if addend is None else addend[:, :, lo:hi],
               late)

    blocks = len(bounds) - 1
    if 1 < parts and blocks < parts <= plan.ty // 2 and u.nbytes <= ROWS_U_BYTES:
        # a block per part (each part its own pass over U, in the cache)
        bounds = [plan.ty * p // parts for p in range(parts + 1)]
        blocks = parts
    if parts == 1:
        rows(0, blocks)
    elif blocks >= parts:  # whole blocks of tile rows per part
        cut = [blocks * p // parts for p in range(parts + 1)]
        workers.parallel(lambda p: rows(cut[p], cut[p + 1]), parts)
    else:  # few tile rows: one V (made here), ranges of filters per part
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
    """The 16 products of tile rows [a, z) for the filters of u, into result's rows."""
    n, m = result.shape[:2]
    mt = scratch("winograd products", (16, n, m, v.shape[-1]), v.dtype)
    for i in range(n):  # one batched product per image: 16 BLAS calls
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
