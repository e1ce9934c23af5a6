"""Identities of one symbol: whether an expression of floors, mods, mins and maxes of s is 0
at every value s takes.

Two spellings of one size meet where a converter crops to what it computed (tf2onnx's Keras
U-Net: `min(2*((h + 1)//2) + 1, 4*((h + 3)//4))` against h after two strided convolutions
and their transposes). Both are the same function of h, yet no normal form shows it, and
@relate left them unsolved: each spelling then fed the arithmetic after it, and their
combinations made 16,000 pairs more. Such an expression is linear on each residue class of
s modulo a period L, from some point on: with s = L*q + r, a floor (a*q + b)//c is
(a/c)*q + b//c when c divides a (L is chosen so that it does), and of two linear pieces a
min or a max keeps one past the point where they cross. So d is 0 everywhere exactly when
every class's piece is 0 and d is 0 at each value before the pieces hold (evaluated).
Products of two pieces that both depend on q (s*s, s*(s//2)) are not linear: no answer.
"""
from __future__ import annotations

from math import gcd

from .expr import Atom, Expr
from .values import Undefined, function_of

MAX_PERIOD = 1024  # residue classes
MAX_CHECKED = 20_000  # values evaluated before the pieces hold


class _NotLinear(Exception):
    """The expression is not linear on the residue classes (or the period must grow)."""


class _Grow(Exception):
    def __init__(self, factor: int):
        self.factor = factor


def identically_zero(d: Expr, s: str, least: int) -> bool:
    """Whether d, an expression of the symbol s alone, is 0 at every integer s >= least
    (False when it is not, or when that cannot be told this way)."""
    return zero_where_multiple(d, s, least) == 1


def zero_where_multiple(d: Expr, s: str, least: int) -> int | None:
    """K when d, an expression of the symbol s alone, is 0 at the integers s >= least that
    are multiples of K and at no other (1: at every one); None when it is not so, or when
    that cannot be told this way. `2*((h + 1)//2) = h` holds where h%2 = 0."""
    found = _pieces_of(d, s)
    if found is None:
        return None
    pieces, start, period = found
    if any(a for a, _ in pieces):
        return None  # (a class where d grows: a root or none, not a class)
    zeros = [r for r, p in enumerate(pieces) if p == (0, 0)]
    if not zeros:
        return None
    k = zeros[1] - zeros[0] if len(zeros) > 1 else period
    if period % k or zeros != list(range(0, period, k)):
        return None
    # every s >= period*start lies on a piece; the values before are evaluated
    first = period * start
    if first - least > MAX_CHECKED:
        return None
    f = function_of(d, s)
    try:
        if all((f(v) == 0) == (v % k == 0) for v in range(least, first)):
            return k
    except (Undefined, ArithmeticError):
        pass
    return None


def _pieces_of(d: Expr, s: str) -> tuple | None:
    """(pieces, start, period) of d (_pieces) at the least period that makes it linear on
    each class, or None."""
    period = _divisors_lcm(d)
    while period is not None and period <= MAX_PERIOD:
        try:
            pieces, start = _pieces(d, s, period)
        except _Grow as g:
            period *= g.factor
            continue
        except (_NotLinear, Undefined, ZeroDivisionError, ValueError, OverflowError):
            return None
        return pieces, start, period
    return None


def _divisors_lcm(d: Expr) -> int | None:
    """The least common multiple of the constant divisors of d's floors and mods (None
    when one is not a constant)."""
    out = 1
    for a in _all_atoms(d):
        if a.kind in ("floordiv", "mod"):
            den = a.args[1]
            if not den.is_int or den.value == 0:
                return None
            c = abs(den.value)
            out = out * c // gcd(out, c)
            if out > MAX_PERIOD:
                return None
    return out


def _all_atoms(e: Expr):
    for mono, _ in e.terms:
        for a, _ in mono:
            yield a
            if a.kind != "sym":
                for arg in a.args:
                    yield from _all_atoms(arg)


def _pieces(d: Expr, s: str, period: int) -> tuple[list, int]:
    """([(a_r, b_r) for r in 0..period-1], Q): d(period*q + r) = a_r*q + b_r for q >= Q."""
    state = {"start": 0}
    memo: dict = {}
    pieces = [_poly(d, s, period, r, state, memo) for r in range(period)]
    return pieces, state["start"]


def _poly(e: Expr, s: str, period: int, r: int, state: dict, memo: dict) -> tuple:
    a_total, b_total = 0, 0
    for mono, c in e.terms:
        a, b = 0, c
        for atom, power in mono:
            pa, pb = _atom(atom, s, period, r, state, memo)
            for _ in range(power):
                if a and pa:
                    raise _NotLinear
                a, b = a * pb + pa * b, b * pb
        a_total += a
        b_total += b
    return a_total, b_total


def _atom(atom: Atom, s: str, period: int, r: int, state: dict, memo: dict) -> tuple:
    key = (atom, r)
    hit = memo.get(key)
    if hit is not None:
        return hit
    kind = atom.kind
    if kind == "sym":
        if atom.args[0] != s:
            raise _NotLinear
        out = (period, r)
    elif kind in ("floordiv", "mod"):
        (na, nb), (da, db) = (_poly(x, s, period, r, state, memo) for x in atom.args)
        if da or db == 0:
            raise _NotLinear
        if na % db:
            raise _Grow(abs(db) // gcd(na, abs(db)))
        q = (na // db, nb // db)  # floor((na*q + nb)/db), db dividing na
        out = q if kind == "floordiv" else (na - db * q[0], nb - db * q[1])
    elif kind in ("max", "min"):
        parts = [_poly(x, s, period, r, state, memo) for x in atom.args]
        out = _dominant(parts, kind == "max", state)
    else:
        raise _NotLinear
    memo[key] = out
    return out


def _dominant(parts: list, largest: bool, state: dict) -> tuple:
    """The piece that is the max (or min) of `parts` for every q past some point, that point
    taken into state["start"]."""
    sign = 1 if largest else -1
    best = max(parts, key=lambda p: (sign * p[0], sign * p[1]))
    for a, b in parts:
        if (a, b) == best or a == best[0]:
            continue  # (equal slopes: the intercepts decide, for every q)
        # best overtakes (a, b) where sign*(best - p) >= 0: q >= (b - best_b)/(best_a - a)
        da, db = sign * (best[0] - a), sign * (best[1] - b)
        if db < 0:
            state["start"] = max(state["start"], -(db // da))
    return best
