"""Ceilings by proof: the least value H of a symbol s past which a condition on s fails at
every value, proven by the bounds of expressions at s = H + s' (s' >= 1), so whatever
their form (max, min, floors: no monotonicity needed).

A learned position table of 64 rows sliced to a sequence of s positions has
min(64, s) rows (`64 - max(0, 64 - s)` as torch.export writes it); added to the
sequence's s rows it broadcasts only where the two are equal or one is 1, that is where
s <= 64. At s = 64 + s' the table has 64 rows, the sequence 65 or more: no value of s'
runs, which `bounds` shows for all of them at once.

`least_ceiling(fails_past, holds_at)` looks for H among the powers of two first, then
bisects between the last that fails the proof and the first that passes it: the proof
at H covers every value above H, so any H it passes is sound, and the least one found is
the tightest that the bounds show.
"""
from __future__ import annotations

import threading
from typing import Callable

from .bounds import not_one, not_zero
from .expr import Expr, ExprOverflow
from .values import Undefined, function_of

# ceilings are looked for up to this value; a condition that holds at TOP or at the
# value below it (a parity) has none up to there, and no proof is tried
TOP = 1 << 24

# the proofs tried so far in this thread (each a substitution and the bounds of its
# expression, up to ~50 for one ceiling): a grounding within an allowance counts them as
# computations (asp/relating.py)
_tried = threading.local()


def proofs_tried() -> int:
    return getattr(_tried, "n", 0)


def least_ceiling(fails_past: Callable[[int], bool],
                  holds_at: Callable[[int], bool]) -> int | None:
    """The least H in 1..TOP (within the bisection) with fails_past(H): a proof that the
    condition fails at every value above H. `holds_at(v)`: the condition's value at v
    (cheap, evaluated): where it holds at TOP or TOP - 1, there is no ceiling below."""
    if holds_at(TOP) or holds_at(TOP - 1):
        return None

    def proven(h: int) -> bool:
        _tried.n = proofs_tried() + 1
        return fails_past(h)

    hi = 1
    while not proven(hi):
        hi *= 2
        if hi > TOP:
            return None
    lo = hi // 2  # (the proof at lo failed, or lo is 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if proven(mid):
            hi = mid
        else:
            lo = mid
    return hi


def least_value(s: str) -> int:
    """The least value a symbol takes: 1 for a graph's name (DESIGN.md: the one
    assumption), 0 for a name the solver made (`_k`: a data-dependent count may be 0)."""
    return 0 if s.startswith("_") else 1


def past(e: Expr, s: str, h: int) -> Expr:
    """e at s = h + s' (s' a symbol >= 1): its bounds hold at every value of s past h."""
    return e.subs({s: Expr.sym(s) + h})


def broadcast_ceiling(a: Expr, b: Expr) -> tuple[str, int, int] | None:
    """(s, L, H): two dims of one symbol s that broadcast (equal, or either of them 1,
    neither negative) only where L <= s <= H; None when no such H is proven (or the dims
    have other symbols, or no value in 1..H lets them broadcast: that is left to the
    rules). Where H is at most ENUMERATED, L and H are the least and the greatest values
    that broadcast; else L is `least_value(s)`."""
    syms = a.symbol_set() | b.symbol_set()
    if len(syms) != 1 or a.is_int or b.is_int:
        return None
    (s,) = syms
    fa, fb = function_of(a, s), function_of(b, s)

    def holds_at(v: int) -> bool:
        try:
            x, y = fa(v), fb(v)
        except Undefined:
            return True  # (no value there: take it as a run, which only weakens H)
        return x >= 0 and y >= 0 and (x == y or x == 1 or y == 1)

    def fails_past(h: int) -> bool:
        try:
            x, y = past(a, s, h), past(b, s, h)
            return not_one(x) and not_one(y) and not_zero(x - y)
        except (ExprOverflow, ZeroDivisionError, ValueError):
            return False

    top = least_ceiling(fails_past, holds_at)
    if top is None:
        return None
    if top > ENUMERATED:
        return s, least_value(s), top
    runs = [v for v in range(least_value(s), top + 1) if holds_at(v)]
    return (s, runs[0], runs[-1]) if runs else None


# a ceiling up to this value is narrowed to the values that broadcast below it, each
# evaluated: the least and the greatest (the bounds that prove the ceiling can be looser:
# min(7, s) against min(20, 2*s) runs at s = 1 alone, and past 3 by the bounds)
ENUMERATED = 4096

