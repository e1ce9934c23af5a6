"""Classify an equation between two dimension expressions.

When one axis receives two values e1 and e2, `relate(e1, e2)` says what e1 = e2
means:

* ``same``      - identical after normalization, or two spellings of one function of a
                  single symbol (symbolic/periodic.py);
* ``conflict``  - no assignment of dims (integers >= 0) satisfies it;
* ``bind``      - it determines one symbol: S = V, where every symbol of V is
                  *smaller* than S in the elimination order, so substitution
                  terminates and bindings never form cycles;
* ``range``     - it confines one symbol to lo..hi (floor division has several
                  solutions: never pick one);
* ``unsolved``  - true but not solvable here (non-linear, several symbols...).

Soundness: `bind` and `range` are consequences of the equation; `conflict` is
only returned when the equation has no solution with every symbol of the graph >= 1 and
every name the solver made (`_k`) >= 0 (DESIGN.md: the one assumption).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Callable

from . import ops
from .bounds import not_zero
from .ceilings import least_ceiling, least_value, past
from .expr import Atom, Expr, ExprOverflow, ZERO
from .periodic import identically_zero
from .values import Undefined, function_of

MAX_ENUMERATION = 4096


@dataclass(frozen=True)
class Relation:
    kind: str  # same | conflict | bind | range | unsolved
    symbol: str | None = None
    value: Expr | None = None
    lo: int | None = None
    hi: int | None = None


SAME = Relation("same")
CONFLICT = Relation("conflict")
UNSOLVED = Relation("unsolved")


def default_order(name: str):
    """Elimination order: solver-made names (`_k`) go first, then by name."""
    return (name.startswith("_"), name)


def relate(e1: Expr, e2: Expr, order: Callable[[str], object] = default_order) -> Relation:
    d = _expand_mod(e1 - e2)
    if d == ZERO:
        return SAME
    d = reduced(_with_remainders(ops.without_symbol_content(d)))
    if d == ZERO:
        return SAME
    if d.is_int:
        return CONFLICT
    d = ops.without_symbol_content(d)
    if d.is_int:
        return SAME if d == ZERO else CONFLICT
    if _linear_without_atoms(d) and d.constant_term() % _content_of_variables(d):
        return CONFLICT  # gcd of coefficients does not divide the constant: no integer solution
    syms = d.symbols()
    top = max(syms, key=order)
    rel = _solve_linear_for(d, top)
    if rel is not None:
        return rel
    if len(syms) == 1:
        rel = _solve_single(d, top)
        # (two spellings of one function of s: tf2onnx's crops, symbolic/periodic.py)
        if rel is UNSOLVED and identically_zero(d, top, least_value(top)):
            return SAME
        return rel
    if _never_zero(d):
        return CONFLICT
    one = _product_of_ones(d)
    return UNSOLVED if one is None else Relation("bind", max(one, key=order), Expr.const(1))


def _product_of_ones(d: Expr) -> set | None:
    """The symbols of M where d = c*M - c for a product M of the graph's symbols: each is
    >= 1 and their product 1, so each is 1 (a Reshape of x [b, s] to one element: b = s =
    1, one binding at a time); None for any other d."""
    if len(d.terms) != 2:
        return None
    (mono, c), (const, k) = d.terms
    if const != () or k != -c or not all(a.kind == "sym" for a, _ in mono):
        return None
    names = {a.args[0] for a, _ in mono}
    return names if all(least_value(s) >= 1 for s in names) else None


def _never_zero(d: Expr) -> bool:
    """d is nonzero wherever each of its symbols is >= 1, all of them the graph's (a name
    the solver made may be 0): `s0*s1*s1 + 2 = 1` has no solution. (An annotation of
    s0*s1*s1 + 2 beside a Reshape of it to 1 element was no conflict: each side was
    taken for 1 in later arithmetic, and `s0*s1*s1 + 2 = s0*s1*s1` printed as a
    constraint; fuzz --narrowing seed 5624, graph 633.)"""
    if any(least_value(s) < 1 for s in d.symbol_set()):
        return False
    try:
        return not_zero(d)
    except (ExprOverflow, ZeroDivisionError, ValueError):
        return False


def _expand_mod(e: Expr) -> Expr:
    """a % b = a - b*(a//b): lets `h%2` and `h - 2*(h//2)` relate as equal."""
    if not any(a.kind == "mod" for a in e.atoms()):
        return e
    total = ZERO
    for mono, c in e.terms:
        term = Expr.const(c)
        for a, p in mono:
            f = Expr.atom(a)
            if a.kind == "mod":
                num, den = a.args
                f = num - den * ops.floordiv(num, den)
            for _ in range(p):
                term = term * f
        total = total + term
    return total


# floor divisions _with_remainders takes out of one equation at most (each rewrite
# multiplies it by a divisor and may expand a product)
MAX_REMAINDER_REWRITES = 16


def _with_remainders(d: Expr) -> Expr:
    """A multiple of d (so the same equation d = 0) without the floor divisions x//m whose
    remainder x % m simplifies to no remainder at all (ops.mod): x//m is (x - x % m)/m, so
    for a term c*(x//m)*r (r: the rest of its monomial) m*d is c*(x - x % m)*r + m*(d -
    c*(x//m)*r). `n + 7*n%8 = 8*((n + 7*n%8)//8)`, a length padded to a multiple of 8 said
    to be one, holds for every n: (n + 7*n%8) % 8 is 0. So does a product of such lengths
    against their windows: ViTDet pads h and w to multiples of 3 and its Reshape meets
    `Hp*Wp = 9*(Hp//3)*(Wp//3)` (Hp = h + 2*h%3), which otherwise stayed an unsolved
    constraint, and made its model a solve without the declared output (three more)."""
    for _ in range(MAX_REMAINDER_REWRITES):  # (each rewrite takes a floor division away)
        for mono, c in d.terms:
            found = _exact_floor_division(mono)
            if found is None:
                continue
            (x, m), remainder, rest = found
            try:
                d = _expand_mod((x - remainder) * c * rest + (d - Expr({mono: c})) * m.value)
            except ExprOverflow:
                return d
            break
        else:
            return d
    return d


def _exact_floor_division(mono) -> tuple | None:
    """((x, m), x % m, the monomial without one x//m as an Expr) for a floor division x//m
    of `mono` by an integer m > 0 whose remainder simplifies to no remainder at all."""
    for i, (atom, power) in enumerate(mono):
        if atom.kind != "floordiv":
            continue
        x, m = atom.args
        if not m.is_int or m.value <= 0:
            continue
        remainder = ops.mod(x, m)
        if any(a.kind == "mod" for a in remainder.atoms()):
            continue
        rest = mono[:i] + ((atom, power - 1),) * (power > 1) + mono[i + 1:]
        return (x, m), remainder, Expr({rest: 1})
    return None


def reduced(d: Expr) -> Expr:
    """d with the factors common to all its terms divided out: symbols (each >= 1) and
    the integers' gcd; d = 0 and reduced(d) = 0 are the same equation."""
    q = ops.without_symbol_content(d)
    g = 0
    for _, c in q.terms:
        g = gcd(g, abs(c))
    return Expr({m: c // g for m, c in q.terms}) if g > 1 else q


def divided_out(a: Expr, b: Expr) -> tuple[Expr, Expr]:
    """a = b without the factors common to all its terms (symbols, each >= 1, and the
    integers' gcd), as a reader writes it: `16*b*w*(h//2) = 8*b*h*w` (a pixel shuffle's
    element counts) is `2*(h//2) = h`. Unchanged when nothing divides out."""
    d = a - b
    q = reduced(d)
    if q == d or d.is_int:  # (two integers stay as they met: `38 = 30`, not `1 = 0`)
        return a, b
    return (Expr({m: c for m, c in q.terms if c > 0}),
            Expr({m: -c for m, c in q.terms if c < 0}))



def _linear_without_atoms(d: Expr) -> bool:
    return all(len(m) <= 1 and all(a.kind == "sym" and p == 1 for a, p in m) for m, _ in d.terms)


def _content_of_variables(d: Expr) -> int:
    g = 0
    for mono, c in d.terms:
        if mono:
            g = gcd(g, abs(c))
    return g or 1


def _solve_linear_for(d: Expr, s: str) -> Relation | None:
    """d = k*s + rest with s nowhere in rest: s = -rest / k (exact given the equation)."""
    atom = Atom("sym", (s,))
    k = 0
    rest: dict = {}
    for mono, c in d.terms:
        if mono == ((atom, 1),):
            k = c
        elif s in Expr({mono: 1}).symbols():
            return None
        else:
            rest[mono] = c
    if k == 0:
        return None
    rhs = -Expr(rest)
    if k < 0:
        k, rhs = -k, -rhs
    if rhs.is_int:
        if rhs.value % k or rhs.value < 0:
            return CONFLICT
        return Relation("bind", s, Expr.const(rhs.value // k))
    # the equation says k divides rhs, so floored division is exact here
    return Relation("bind", s, ops.floordiv(rhs, k))


def _solve_single(d: Expr, s: str) -> Relation:
    """All solutions of d(s) = 0 found inside a proven enclosing interval: s >= 1 for a
    symbol of the graph (DESIGN.md: the one assumption), s >= 0 for a name the solver made
    (`_k`: a data-dependent count may be 0). (With 0 allowed, `s = (s - 1)//2 + 1` gave the
    range 0..1, not the binding s = 1, and a Col2Im whose image size is its own input's
    axis fed that axis ever deeper floors of itself, without end.)"""
    least = least_value(s)
    interval = _enclosing_interval(d, s) or _below_ceiling(d, s, least)
    if interval is None:
        return UNSOLVED
    lo, hi = interval
    lo = max(lo, least)
    if hi < lo:
        return CONFLICT
    if hi - lo > MAX_ENUMERATION:
        return UNSOLVED
    is_root = _root_test(d, s)
    solutions = [v for v in range(lo, hi + 1) if is_root(v)]
    if not solutions:
        return CONFLICT
    if len(solutions) == 1:
        return Relation("bind", s, Expr.const(solutions[0]))
    if solutions[-1] - solutions[0] + 1 == len(solutions):
        return Relation("range", s, lo=solutions[0], hi=solutions[-1])
    return UNSOLVED


def _below_ceiling(d: Expr, s: str, least: int) -> tuple[int, int] | None:
    """(least, H) where d(s) = 0 has no solution past H (symbolic/ceilings.py: proven by
    the bounds of d at s = H + s'), for the d no linear band encloses: `min(64, s) = s`,
    a table of 64 rows sliced to s positions beside the s positions, holds at s <= 64
    alone (the range 1..64)."""
    is_root = _root_test(d, s)

    def holds_at(v: int) -> bool:
        try:
            return is_root(v)
        except ExprOverflow:
            return True

    def fails_past(h: int) -> bool:
        try:
            return not_zero(past(d, s, h))
        except (ExprOverflow, ZeroDivisionError, ValueError):
            return False

    top = least_ceiling(fails_past, holds_at)
    return None if top is None else (least, top)


def _root_test(d: Expr, s: str) -> Callable[[int], bool]:
    """v -> whether d(v) = 0: by integer arithmetic (symbolic/values.py), by substitution
    where d has no value there or mentions another symbol."""
    def by_substitution(v: int) -> bool:
        return d.subs({s: Expr.const(v)}) == ZERO

    if d.symbol_set() != {s}:
        return by_substitution
    f = function_of(d, s)

    def is_root(v: int) -> bool:
        try:
            return f(v) == 0
        except Undefined:
            return by_substitution(v)
    return is_root


def _enclosing_interval(d: Expr, s: str) -> tuple[int, int] | None:
    """Bound d(s) between a*s + b_lo and a*s + b_hi; solutions lie where 0 is in between."""
    band = _linear_band(d, s)
    if band is None:
        return None
    slope, b_lo, b_hi = band
    if slope == 0:
        return None
    # a*s + b_lo <= 0 <= a*s + b_hi
    x1, x2 = -b_hi / slope, -b_lo / slope
    lo, hi = min(x1, x2), max(x1, x2)
    return _ceil(lo), _floor(hi)


def _linear_band(e: Expr, s: str):
    """(slope, lo offset, hi offset) with e(s) in [slope*s + lo, slope*s + hi], or None."""
    slope, lo, hi = Fraction(0), Fraction(0), Fraction(0)
    for mono, c in e.terms:
        if not mono:
            lo += c
            hi += c
            continue
        if len(mono) != 1 or mono[0][1] != 1:
            return None
        atom = mono[0][0]
        if atom.kind == "sym":
            slope += c
            continue
        if atom.kind != "floordiv" or not atom.args[1].is_int:
            return None
        inner = _linear_band(atom.args[0], s)
        if inner is None:
            return None
        k = atom.args[1].value
        a, ilo, ihi = inner
        # floor(x / k) lies in [x/k - (k-1)/k, x/k]
        t_slope, t_lo, t_hi = a / k, ilo / k - Fraction(k - 1, k), ihi / k
        slope += c * t_slope
        if c > 0:
            lo, hi = lo + c * t_lo, hi + c * t_hi
        else:
            lo, hi = lo + c * t_hi, hi + c * t_lo
    return slope, lo, hi


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)
