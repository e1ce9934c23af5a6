"""Interval bounds of expressions, with every symbol ranging over [1, inf) - but a count of
the data's as printed (`_c1`: COUNT_PREFIX), over [0, inf).

Sound over-approximation: the true value always lies in the returned interval.
Used to drop dominated max/min arguments, to prove a dim cannot be 1 (for
broadcasting) and to prove a dim negative (a shape error).
"""
from __future__ import annotations

from math import inf

from .expr import Expr, ExprOverflow

# a dimension beyond 2^62 is absurd (no machine holds it); bounding symbols there lets
# min(INT64_MAX, s) simplify to s, as Slice ends need
SYMBOL_RANGE = (1, 2**62)
# a count of the data's own, as decode prints it (asp/data_counts.py), may be 0: while
# solving, the count is C - 1 for a name C >= 1, and only the printed names start so (no
# user's name starts with `_`, and the solver's other names are `_<digits>`, `_i<k>_..`)
COUNT_PREFIX = "_c"
COUNT_RANGE = (0, 2**62)


def bounds(e) -> tuple[float, float]:
    b = e._bounds  # expressions are immutable: computed once per expression
    if b is None:
        # and once per process for equal ones (a pure function of e): max and min test
        # each pair of their arguments as a new difference, b - a, and an explaining
        # solve (no bindings substituted) met each one ~3 times, each time refined anew
        # (a GPT-2 block's KV cache joined along the batch: 16,317 bounds of 6,056
        # expressions, ~2.4 s of its 12 s explanation)
        b = _KNOWN.get(e)
        if b is None:
            b = _bounds(e, [MAX_REFINEMENTS])
            if len(_KNOWN) >= KNOWN_MOST:
                _KNOWN.clear()
            _KNOWN[e] = b
        e._bounds = b
    return b


_KNOWN: dict = {}  # expression -> its bounds
KNOWN_MOST = 50_000


def not_one(e, bounds_of=bounds) -> bool:
    """e is not 1 whatever its symbols are: an integer other than 1, or provably >= 2 or
    <= 0 (under `bounds_of`)."""
    if e.is_int:
        return e.value != 1
    lo, hi = bounds_of(e)
    return lo >= 2 or hi <= 0


def not_zero(e, bounds_of=bounds) -> bool:
    """e is not 0 whatever its symbols are (provably > 0 or < 0, under `bounds_of`)."""
    lo, hi = bounds_of(e)
    return lo > 0 or hi < 0


# the expressions one bounds() may bound to refine its own (each refinement bounds two
# or more expressions built from e's terms, which may refine again on their own atoms:
# nested floor divisions made that 2^depth). Past it an expression gets its interval.
# An explaining solve (no bindings substituted) of a Col2Im whose block size is computed
# (fuzz --kind ops --seed 511, graph 358) nested `x//4` inside `//(s1 - 1)` ever deeper:
# 4,000 expressions bounded per call, doubling per level, and the allowance of
# computations that stops such a grounding was never reached (> 100 s).
MAX_REFINEMENTS = 64


def _bounds(e, budget: list) -> tuple[float, float]:
    """e's bounds, refining on its atoms while budget[0] (shared by the whole call, spent
    depth first: a pure function of e) lasts."""
    lo, hi = _interval(e)
    if lo == hi:
        return lo, hi
    if lo < 1 and len(e.terms) <= MAX_SHIFTED_TERMS and e.degree() >= 2:
        lo = max(lo, _shifted_lower(e))
    if budget[0] <= 0:
        return lo, hi
    budget[0] -= 1
    # the refinements build expressions of their own (k times e's other terms), which may
    # pass the arithmetic's limits where e does not: 2^63 - 1 - ((w + 1)//2 + 1)//2 (a
    # Slice's end, INT64_MAX, beside a pooled width) took it to 4*(2^63 - 1) and failed,
    # so min(2^63 - 1, that width) gave up and the Slice's length was a fresh name (DETR's
    # position embedding). The interval is a bound all the same.
    try:
        return _refined(e, lo, hi, budget)
    except ExprOverflow:
        return lo, hi


def to_residues(e, lo, hi) -> tuple[float, float]:
    """e's interval [lo, hi] narrowed to the values of e's residue modulo M, when e % M
    simplifies to an integer r whatever the symbols (M the modulus of a term c*(x % M)): a
    length padded to whole windows of M, `s + 3*s%4` (r = 0), is at least M once it is at
    least 1, and 2 less it is 2 modulo 4 and at most 1, so at most -2: min(2, s + 3*s%4) is
    2 (LED's and Longformer's attention windows kept `min(2, that) = 2` as a constraint,
    a second solve each). Used where a min or max compares an expression with an integer
    only (ops._dominates): bounds everywhere narrowed so made Swin2SR's grounding run away
    (the arithmetic writes ceil(h/4) both as (h + 3*h%4)//4 and as h - 3*h//4, and newly
    simplified terms related the two forms without end)."""
    if lo == -inf and hi == inf:
        return lo, hi
    for mono, _ in e.terms:
        atom = mono[0][0] if len(mono) == 1 else None
        if atom is None or atom.kind != "mod" or not atom.args[1].is_int:
            continue
        m = atom.args[1].value
        r = _remainder(e, atom.args[1]) if m > 1 else None
        if r is not None:
            new_lo = lo + (r - lo) % m if lo != -inf else lo
            new_hi = hi - (hi - r) % m if hi != inf else hi
            return (new_lo, new_hi) if new_lo <= new_hi else (lo, hi)
    return lo, hi


def _refined(e, lo, hi, budget: list) -> tuple[float, float]:
    """e's interval [lo, hi] narrowed on an atom that occurs alone in a term."""
    # a modulo or a floored division by an integer that occurs alone in a term (c*(x%d),
    # c*(x//k)) is bounded by expressions of its own arguments: e lies between its values
    # at the two ends, which keeps the relation between the atom and its arguments that
    # intervals lose (x%h < h, so min(h, x%h) is x%h; h - 2*(h//2) >= 0)
    linear = _alone(e, _sandwiched)
    if not linear:
        return _extremum_refined(e, lo, hi, budget)
    if len(linear) > MAX_REFINED:
        return lo, hi
    atom, c = linear[0]
    rest = _without(e, atom)
    num, den = atom.args
    if atom.kind == "mod":  # 0 <= x%d <= d - 1
        ends = [rest, rest + c * (den - 1)]
        k = 1
    else:  # k*(x//k) is in [x - k + 1, x]: bound k*e, then e
        k = den.value
        ends = [k * rest + c * num, k * rest + c * (num - (k - 1))]
        exact = _remainder(num, den)
        if exact is not None:  # k*(x//k) is x - r: a length padded to whole windows of k
            ends = [k * rest + c * (num - exact)]
    ends = [_bounds(x, budget) for x in ends]
    r_lo = min(b[0] for b in ends)
    r_hi = max(b[1] for b in ends)
    if k > 1:
        r_lo = -((-r_lo) // k) if r_lo not in (inf, -inf) else r_lo
        r_hi = r_hi // k if r_hi not in (inf, -inf) else r_hi
    return max(lo, r_lo), min(hi, r_hi)


# refining e on each of its modulo or floor-division atoms doubles the expressions bounded
MAX_REFINED = 3
# a min or max refined on has at most this many arguments: each is an expression bounded
MAX_EXTREMUM_ARGS = 4


def _extremum_refined(e, lo, hi, budget: list) -> tuple[float, float]:
    """e's interval narrowed on a min or max atom that occurs alone in a term, c*m: a min
    is at most each of its arguments and a max at least each, so (by c's sign) one side
    of e is bounded by e with m replaced by any one argument, whichever bounds it best.
    Intervals alone lose how m relates to its arguments: 2*s - min(4, s) is at least s
    (>= 1), not 2 - 4; without it max(min(4, s) - s + 1, s) stayed a max, and a Slice
    and a broadcast that fed each other nested such maxes without end (fuzz seed 21)."""
    linear = _alone(e, lambda a: a.kind in ("min", "max") and len(a.args) <= MAX_EXTREMUM_ARGS)
    if not linear or len(linear) > MAX_REFINED:
        return lo, hi
    atom, c = linear[0]
    rest = _without(e, atom)
    ends = [_bounds(rest + c * arg, budget) for arg in atom.args]
    if (atom.kind == "min") == (c < 0):  # c*m >= c*arg for every argument: e from below
        return max(lo, max(b[0] for b in ends)), hi
    return lo, min(hi, min(b[1] for b in ends))


# a product is expanded around its atoms' lower bounds only up to this many terms
MAX_SHIFTED_TERMS = 12


def _shifted_lower(e) -> float:
    """A lower bound of a polynomial e from its expansion around its atoms' lower bounds:
    with each atom x = L + y (y >= 0), a term of a positive coefficient is >= 0, so where
    every term but the constant has one, e >= the constant. Intervals lose what factors
    share: (2*a - 1)*(2*b - 1) for a, b >= 1 is 4*a*b - 2*a - 2*b + 1, whose terms' intervals
    add up to nothing, while around a = b = 1 it is 1 + 2*y + 2*z + 4*y*z >= 1 (BEiT's
    relative position table, Resized to (2*(h//8) - 1) x (2*(w//8) - 1) and reshaped to
    [that product, heads])."""
    from math import comb

    lows = {}
    for mono, _ in e.terms:
        for atom, _p in mono:
            if atom not in lows:
                a_lo = atom_bounds(atom)[0]
                if a_lo == -inf:
                    return -inf
                lows[atom] = int(a_lo)
    # the expansion: the powers of the y's (atom -> k > 0) -> coefficient
    expanded: dict = {}
    for mono, c in e.terms:
        parts = [()]
        for atom, p in mono:
            parts = [part + ((atom, p, k),) for part in parts for k in range(p + 1)]
        for part in parts:
            coef = c
            for atom, p, k in part:
                coef *= comb(p, k) * lows[atom] ** (p - k)
            key = frozenset((atom, k) for atom, _p, k in part if k)
            expanded[key] = expanded.get(key, 0) + coef
    if any(c < 0 for key, c in expanded.items() if key):
        return -inf
    return expanded.get(frozenset(), 0)


def _alone(e, test) -> list:
    """(atom, c) for each atom that passes `test` and occurs alone in a term c*atom of e."""
    return [(a, c) for mono, c in e.terms if len(mono) == 1 and mono[0][1] == 1
            for a in (mono[0][0],) if test(a)]


def _without(e, atom):
    """e less its term c*atom."""
    from .expr import Expr

    return Expr({m: k for m, k in e.terms if m != ((atom, 1),)})


def _sandwiched(atom) -> bool:
    if atom.kind == "mod":
        return bounds(atom.args[1])[0] >= 1
    return atom.kind == "floordiv" and atom.args[1].is_int and atom.args[1].value >= 2


def _interval(e) -> tuple[float, float]:
    lo = hi = 0
    for mono, c in e.terms:
        m_lo, m_hi = _monomial_bounds(mono)
        if c > 0:
            lo, hi = _add(lo, c * m_lo if m_lo != -inf else -inf), _add(hi, _scale(c, m_hi))
        else:
            lo, hi = _add(lo, _scale(c, m_hi)), _add(hi, _scale(c, m_lo))
    return lo, hi


def _scale(c, v):
    if v in (inf, -inf):
        return v if c > 0 else -v
    return c * v


def _add(a, b):
    if (a == inf and b == -inf) or (a == -inf and b == inf):
        return -inf if a == -inf else inf
    return a + b


def _monomial_bounds(mono):
    lo, hi = 1, 1
    for atom, p in mono:
        a_lo, a_hi = atom_bounds(atom)
        for _ in range(p):
            lo, hi = _interval_mul((lo, hi), (a_lo, a_hi))
    return lo, hi


def _interval_mul(x, y):
    products = []
    for a in x:
        for b in y:
            if (a == 0 and b in (inf, -inf)) or (b == 0 and a in (inf, -inf)):
                products.append(0)
            else:
                products.append(a * b)
    return min(products), max(products)


def _floor_div_bound(n, d):
    """floor(n / d) for a bound n and a positive divisor bound d (either may be infinite)."""
    if n in (inf, -inf):
        return n
    if d == inf:
        return 0 if n >= 0 else -1
    return n // d


def _multiple(num, den) -> bool:
    """num is provably a multiple of the integer den (its remainder simplifies to 0)."""
    return _remainder(num, den) == 0


def _remainder(num, den) -> int | None:
    """num % den for an integer den when it simplifies to an integer whatever the symbols
    (a length padded to whole windows, `s + 3*s%4`, by 4: 0), else None."""
    if not any(a.kind == "mod" for mono, _ in num.terms for a, _p in mono):
        return None
    from . import ops

    r = ops.mod(num, den)
    return r.value if r.is_int else None


def atom_bounds(atom) -> tuple[float, float]:
    b = atom._bounds
    if b is None:
        b = atom._bounds = _atom_bounds(atom)
    return b


def _atom_bounds(atom) -> tuple[float, float]:
    kind = atom.kind
    if kind == "sym":
        return COUNT_RANGE if atom.args[0].startswith(COUNT_PREFIX) else SYMBOL_RANGE
    if kind == "floordiv":
        num, den = atom.args
        n_lo, n_hi = bounds(num)
        d_lo, d_hi = bounds(den)
        if d_lo < 1:
            return -inf, inf
        lo = _floor_div_bound(n_lo, d_hi if n_lo >= 0 else d_lo)
        if d_lo == d_hi and n_lo not in (inf, -inf) and _multiple(num, den):
            # an exact quotient rounds its bound up: a positive multiple of 4 is >= 4, so
            # (s + 3*s%4)//4 >= 1 (a length padded to a window of 4, in windows)
            lo = -(-n_lo // d_lo)
        return lo, _floor_div_bound(n_hi, d_lo if n_hi >= 0 else d_hi)
    if kind == "mod":
        _, den = atom.args
        d_lo, d_hi = bounds(den)
        if d_lo >= 1:
            return 0, d_hi - 1 if d_hi != inf else inf
        return -inf, inf
    if kind in ("max", "min"):
        bs = [bounds(a) for a in atom.args]
        pick = max if kind == "max" else min
        return pick(b[0] for b in bs), pick(b[1] for b in bs)
    return -inf, inf


def factors_at_least(big: Expr, small: Expr) -> bool:
    """big >= small whatever the symbols, factor by factor (factor_pairs). A convolution's
    patches ((h + 1)//2)*((w + 1)//2) against a table resized to (h//2)*(w//2) (HF
    Hiera): the difference's interval cannot tell, its factors' can."""
    return factor_pairs(big, small) is not None


def factor_pairs(big: Expr, small: Expr) -> list | None:
    """[(x, y), ..]: big and small are single terms c*x1*..*xk and d*y1*..*yk with
    c >= d >= 0, each y >= 0 paired with an x that bounds show >= it (so big >= small);
    None where no such pairing is found."""
    if len(big.terms) != 1 or len(small.terms) != 1:
        return None
    (mono_b, c), (mono_s, d) = big.terms[0], small.terms[0]
    xs = [x for x, p in mono_b for _ in range(p)]
    ys = [y for y, p in mono_s for _ in range(p)]
    if not c >= d >= 0 or len(xs) != len(ys) or not ys:
        return None
    pairs = []
    for y in ys:
        ey = Expr.atom(y)
        if bounds(ey)[0] < 0:
            return None
        x = next((x for x in xs if x == y or bounds(Expr.atom(x) - ey)[0] >= 0), None)
        if x is None:
            return None
        xs.remove(x)
        pairs.append((x, y))
    return pairs
