"""Equations implied by others: a list of constraints A = B stated once each, without those
whose difference A - B is a linear combination of the simpler ones' differences (each
monomial, floor quotients and all, taken as a variable of its own).

A linear combination of equations that hold holds too, so what is left out is implied
exactly, never guessed. A detection head that concatenates three feature maps, an
Ultralytics YOLOv8 at height h and width w, equates sums of products of h//8, h//16,
h//32 and w's alike in some 400 ways, all combinations of a few."""
from __future__ import annotations

from fractions import Fraction


def independent(pairs: list, order) -> list:
    """The pairs (A, B), in the given order of preference (`order`: a sort key, simplest
    first), whose differences the pairs kept before them do not span."""
    basis: list = []  # (pivot monomial, row reduced against the rows before it)
    kept = []
    for a, b in sorted(pairs, key=order):
        row = {m: Fraction(c) for m, c in (a - b).terms}
        for pivot, base in basis:  # (forward elimination, in the order the rows came)
            c = row.get(pivot)
            if c:
                for m, v in base.items():
                    w = row.get(m, 0) - c * v
                    if w:
                        row[m] = w
                    else:
                        row.pop(m, None)
        if not row:
            continue  # a combination of the kept ones: implied
        pivot = next(iter(row))
        lead = row[pivot]
        basis.append((pivot, {m: v / lead for m, v in row.items()}))
        kept.append((a, b))
    return kept
