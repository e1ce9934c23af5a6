"""Conv by output-side tap sums: for few filters over many input channels (M < C).

im2col (Conv.py) copies every tap of every input channel into the columns, K * C * L
elements, and multiplies [M, C*K] @ [C*K, L]. With few filters (DenseNet's 3x3 convs,
128 channels -> 32) that copy is four times the products it feeds, and BLAS is slow on a
product of 32 rows. Instead multiply all taps' weights at once by the padded input
itself, [K*M, C] @ [C, P] (P the flat positions of the padded grid: taps.TapPlan, one
phase for stride 1), and sum the K blocks of M rows, each shifted by its tap's flat
offset: K - 1 additions of [M, L] and no column matrix (K * M * L written, not K * C * L).

The output rows are cut into blocks whose products ([K*M, block] at most BLOCK_BYTES)
stay in the cache while they are summed; the parts of the intra-op threads take whole
blocks of output rows. Two spatial axes, stride 1, one group.
"""
from __future__ import annotations

import numpy as np

from . import workers
from .conv_parts import spread
from .scratch import scratch
from .taps import TapPlan

BLOCK_BYTES = 4 << 20  # the products of one block of output rows, at most (smaller: BLAS
# packs the weights again per block, [288, 128] @ [128, 3364] 2.4 ms whole, 3.0 ms by 1 MiB)


# fewer output positions than this: im2col (its products are no larger there, and tap
# sums' padded grid and shifted sums cost more: DenseNet's 128 -> 32 3x3 at 7x7, cold
# cache, 160 -> 122 us; at 14x14 even, ~300 either way)
MIN_POSITIONS = 100


def tap_sums_plan(sizes, kernel, strides, dilations, begin, out, c: int, m: int,
                  group: int):
    """A TapPlan (padded, no wrapping rows) when tap sums apply, else None: two spatial
    axes, stride 1, one group, a kernel wider than 1x1 and at most a third as many
    filters as input channels (measured, 3x3 pad 1, cold cache: 128 -> 32 at 56x56 4.6
    -> 3.2 ms on one thread, 3.0 -> 2.3 on two; 128 -> 64 at 28x28 even; as many
    filters as channels 10-60% slower: the [K*M, C] product is the larger then)."""
    if len(sizes) != 2 or group != 1 or any(s != 1 for s in strides) \
            or kernel[0] * kernel[1] == 1 or 3 * m > c or out[0] * out[1] < MIN_POSITIONS:
        return None
    return TapPlan(sizes, kernel, strides, dilations, begin, out)


def tap_weights(w: np.ndarray, dtype) -> np.ndarray:
    """w [M, C, kh, kw] as [K*M, C]: tap t's filters at rows t*M..(t+1)*M, taps row-major
    over the kernel (the order of TapPlan.taps)."""
    return np.ascontiguousarray(w.transpose(2, 3, 0, 1).reshape(-1, w.shape[1]),
                                dtype=dtype)


def run_tap_sums(plan: TapPlan, x: np.ndarray, wt: np.ndarray, result: np.ndarray) -> None:
    """result [N, M, H, W] = the convolution of x by the weights `wt` (tap_weights), no
    bias; on the intra-op threads when the work pays."""
    n, c = x.shape[:2]
    m = result.shape[1]
    k = len(plan.taps)
    rows = plan.out[0]
    flat = plan.split(x, 0)  # [N, C, 1, P]: the zero-padded input, one phase
    pitch = plan.pitch
    block = max(1, BLOCK_BYTES // (k * m * pitch * x.itemsize))
    parts = workers.worth(n * rows * pitch * k * c * m)
    bounds = spread(rows, parts, 1)

    def part(p: int) -> None:
        for r0 in range(bounds[p], bounds[p + 1], block):
            r1 = min(bounds[p + 1], r0 + block)
            for i in range(n):
                rows_block(plan, flat[i, :, 0], wt, result[i], r0, r1)

    workers.parallel(part, len(bounds) - 1)


def rows_block(plan: TapPlan, flat: np.ndarray, wt: np.ndarray, out: np.ndarray,
               r0: int, r1: int) -> None:
    """Output rows [r0, r1) of one image: out [M, H, W], flat [C, P] its padded input."""
    m = out.shape[0]
    k = len(plan.taps)
    pitch, width = plan.pitch, plan.out[1]
    span = (r1 - r0) * pitch  # the block's flat output positions (whole grid rows)
    reach = plan.taps[-1][1]  # the last tap's offset: the farthest one
    start = r0 * pitch
    # the products at every position a tap of the block reads; the last rows of the
    # grid end before `span + reach` (their columns past the output's width are unread)
    have = min(flat.shape[1] - start, span + reach)
    prods = scratch("tap products", (k, m, span + reach), flat.dtype)
    np.matmul(wt, flat[:, start:start + have],
              out=prods.reshape(k * m, span + reach)[:, :have])
    if have < span + reach:  # read only past the output's width: finite, then dropped
        prods[:, :, have:] = 0
    sums = scratch("tap grid", (m, span), flat.dtype)
    (_, a), (_, b) = plan.taps[:2]
    np.add(prods[0, :, a:a + span], prods[1, :, b:b + span], out=sums)
    for t in range(2, k):  # each tap's products shifted by its flat offset
        o = plan.taps[t][1]
        np.add(sums, prods[t, :, o:o + span], out=sums)
    np.copyto(out[:, r0:r1], sums.reshape(m, r1 - r0, pitch)[:, :, :width])
