"""The transforms of Winograd's F(2x2, 3x3) and F(4x4, 3x3) (Lavin & Gray 2016) as
NumPy passes over whole arrays: each takes the rows (or columns) of every window at
once as a list of equally shaped arrays and writes its outputs' (winograd.py lays them
out as long contiguous runs). B^T and A^T hold small integers; their products are
written as additions and subtractions with shared terms, as few passes as we found
(NumPy runs one pass per operation; a scalar multiply is one too).

    F(m, 3): y = A^T [(G g G^T) * (B^T d B)] A for a tile of m x m outputs, d its
    (m + 2) x (m + 2) input window, g a 3x3 filter.

A^T's second column is all ones in both: a term added to the products of tile element
(1, 1) reaches every output once (the bias, winograd.weights).
"""
from __future__ import annotations

import numpy as np

from .scratch import scratch


def _temps(like: np.ndarray, count: int) -> list:
    """`count` scratch arrays shaped like `like` (names of their own: `like` may be one)."""
    return [scratch(f"winograd temp {i}", like.shape, like.dtype) for i in range(count)]


class F2:
    """F(2x2, 3x3): 16 products per tile of 4 outputs (36 direct); exact transforms
    (G's halves are exact in binary), so the result is as accurate as im2col's."""

    m, size = 2, 4
    G = np.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]])
    AT = np.array([[1, 1, 1, 0], [0, 1, -1, -1]])
    BT = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]])

    @staticmethod
    def input(d: list, out: list) -> None:
        """out = B^T d: d0 - d2, d1 + d2, d2 - d1, d1 - d3."""
        for o, (op, a, b) in enumerate(((np.subtract, 0, 2), (np.add, 1, 2),
                                        (np.subtract, 2, 1), (np.subtract, 1, 3))):
            op(d[a], d[b], out=out[o])

    @staticmethod
    def output(t: list, out: list) -> None:
        """out = A^T t: t0 + t1 + t2, t1 - t2 - t3."""
        for o, (op, a, b, c) in enumerate(((np.add, 0, 1, 2), (np.subtract, 1, 2, 3))):
            op(t[a], t[b], out=out[o])
            op(out[o], t[c], out=out[o])


class F4:
    """F(4x4, 3x3): 36 products per tile of 16 outputs (144 direct), the transforms
    ~1.5x F2's passes per output; G has sixths and twenty-fourths (rounded in float32:
    a few ulps of the largest product more than im2col)."""

    m, size = 4, 6
    G = np.array([[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6], [-1 / 6, 1 / 6, -1 / 6],
                  [1 / 24, 1 / 12, 1 / 6], [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]])
    AT = np.array([[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0],
                   [0, 1, -1, 8, -8, 1]])
    BT = np.array([[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
                   [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]])

    @staticmethod
    def input(d: list, out: list) -> None:
        """out = B^T d in 19 passes: 4 (d0 - d2) + (d4 - d2), (d4 - 4 d2) +- (d3 - 4 d1),
        (d4 - d2) +- 2 (d3 - d1), 4 (d1 - d3) + (d5 - d3)."""
        t0, t1 = _temps(out[0], 2)
        for o, a, b, c in ((out[0], d[0], d[2], d[4]), (out[5], d[1], d[3], d[5])):
            np.subtract(a, b, out=o)
            np.multiply(o, 4, out=o)
            np.add(o, c, out=o)
            np.subtract(o, b, out=o)
        np.multiply(d[2], 4, out=t0)
        np.subtract(d[4], t0, out=t0)
        np.multiply(d[1], 4, out=t1)
        np.subtract(d[3], t1, out=t1)
        np.add(t0, t1, out=out[1])
        np.subtract(t0, t1, out=out[2])
        np.subtract(d[4], d[2], out=t0)
        np.subtract(d[3], d[1], out=t1)
        np.add(t1, t1, out=t1)
        np.add(t0, t1, out=out[3])
        np.subtract(t0, t1, out=out[4])

    @staticmethod
    def output(t: list, out: list) -> None:
        """out = A^T t in 13 passes: with a, b = t1 +- t2 and c, e = t3 +- t4: t0 + a + c,
        b + 2 e, a + 4 c, b + 8 e + t5."""
        a, b, c, e = _temps(out[0], 4)
        np.add(t[1], t[2], out=a)
        np.subtract(t[1], t[2], out=b)
        np.add(t[3], t[4], out=c)
        np.subtract(t[3], t[4], out=e)
        np.add(t[0], a, out=out[0])
        np.add(out[0], c, out=out[0])
        np.multiply(e, 2, out=out[1])
        np.add(out[1], b, out=out[1])
        np.multiply(c, 4, out=out[2])
        np.add(out[2], a, out=out[2])
        np.multiply(e, 8, out=out[3])
        np.add(out[3], b, out=out[3])
        np.add(out[3], t[5], out=out[3])
