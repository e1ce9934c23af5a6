"""StringSplit: each string split on `delimiter` (runs of whitespace when it is empty or not
given), at most maxsplit times; the lists padded with empty strings to the longest (Y, one
axis more), and each list's length (Z)."""
import numpy as np

from .base import Kernel
from .strings import strings


class StringSplit(Kernel):
    attrs = {"delimiter": None, "maxsplit": None}

    def run(self, x, delimiter, maxsplit):
        x = strings(self, x)
        sep = delimiter or None
        pieces = [s.split(sep, -1 if maxsplit is None else maxsplit) for s in x.reshape(-1)]
        counts = np.array([len(p) for p in pieces], np.int64).reshape(x.shape)
        longest = int(counts.max(initial=0))
        y = np.full((len(pieces), longest), "", object)
        for i, p in enumerate(pieces):  # (one row per string: the pieces are Python lists)
            y[i, :len(p)] = p
        return y.reshape(x.shape + (longest,)), counts
