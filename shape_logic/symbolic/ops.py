"""The non-ring operations of the shape language, each returning canonical form.

floordiv(a, c) with an integer c > 0 splits every coefficient k = c*q + r
(0 <= r < c) so that a//c = Q + R//c with R's coefficients in [0, c): this is
unique, hence canonical.  `(h - 1)//2` becomes `(h + 1)//2 - 1`.
"""
from __future__ import annotations

from math import gcd

from .bounds import COUNT_PREFIX, bounds, factors_at_least, to_residues
from .expr import MAX_TERMS, Atom, Expr, ExprOverflow, ZERO, as_expr

# Expressions are immutable values, so these operations are pure functions of their
# operands: results are remembered (grounding asks for the same ones again and again,
# and substitution rebuilds every atom of an expression). Failures are not remembered.
_MEMO: dict = {}
_MEMO_MAX = 100_000


def _remember(key, value: Expr) -> Expr:
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[key] = value
    return value


def floordiv(a, b) -> Expr:
    a, b = as_expr(a), as_expr(b)
    key = ("floordiv", a, b)
    hit = _MEMO.get(key)
    return hit if hit is not None else _remember(key, _floordiv(a, b))


def _floordiv(a: Expr, b: Expr) -> Expr:
    if b.is_int:
        return _floordiv_int(a, b.value)
    q = exact_div(a, b)
    if q is not None:
        return q
    # padded lengths in a product, as multiples of their windows (_padded_form)
    a_form, b_form = _padded_form(a), _padded_form(b)
    if a_form != a or b_form != b:
        return floordiv(a_form, b_form)
    # a common factor cancels: floor(m*a / (m*b)) = floor(a / b) wherever the division is
    # defined (m != 0); Reshape's -1 after a split axis gives floor(b*h*w / (2*b*w))
    common = _common_factor(a, b)
    if common:
        return floordiv(exact_div(a, common), exact_div(b, common))
    # a common integer factor cancels: floor(2h / 2c) = floor(h / c)
    g = gcd(a.content(), b.content())
    if g > 1:
        a, b = a.scale_div(g), b.scale_div(g)
    if b.constant_term() < 0 and all(c < 0 for _, c in b.terms):
        a, b = -a, -b
    return Expr.atom(Atom("floordiv", (a, b)))


def _common_factor(a: Expr, b: Expr) -> Expr | None:
    """The greatest monomial dividing every term of a and of b, if not 1."""
    common: dict | None = None
    for mono, _ in a.terms + b.terms:
        powers = dict(mono)
        common = powers if common is None else \
            {at: min(p, powers[at]) for at, p in common.items() if at in powers}
        if not common:
            return None
    return Expr({tuple(sorted(common.items(), key=lambda ap: ap[0].key)): 1})


def _floordiv_int(a: Expr, c: int) -> Expr:
    if c == 0:
        raise ZeroDivisionError("division by zero in a dimension expression")
    if c < 0:
        a, c = -a, -c
    if c == 1:
        return a
    if a.is_int:
        return Expr.const(a.value // c)
    quot: dict = {}
    rem: dict = {}
    for mono, k in a.terms:
        q, r = divmod(k, c)
        quot[mono] = q
        rem[mono] = r
    q_expr, r_expr = Expr(quot), Expr(rem)
    if r_expr.is_int:  # remainder in [0, c): contributes nothing
        return q_expr
    g = gcd(r_expr.content(), c)
    if g > 1:
        r_expr, c = r_expr.scale_div(g), c // g
    merged = _merged_floor(r_expr, c)
    if merged is not None:
        return q_expr + merged
    whole = _multiple_of(r_expr, c)
    if whole:
        return q_expr + floordiv(r_expr, whole) * (whole // c)
    padded = _padded_factor(r_expr, c)
    if padded is not None:
        return q_expr + padded
    return q_expr + Expr.atom(Atom("floordiv", (r_expr, Expr.const(c))))


# the divisor of a merged division, at most (_merged_floor): past it, or over a numerator
# with a division in it, the divisions nest, and nesting is bounded (expr.MAX_DEPTH). A
# cycle of windows in an explaining solve (no binding substituted: a pooled axis
# upsampled and met again, h = 2*((h + 2)//4)) fed each merged division into the next,
# its divisor doubling each round to 2^64 (14,000 computations where nesting had stopped
# at 1,000), and with this bound alone merged again under each new level
MAX_MERGED = 1 << 10


def _merged_floor(a: Expr, c: int) -> Expr | None:
    """(x//d + R)//c as (x + d*R)//(d*c), for a term x//d of a (d > 0, coefficient 1) and
    R the rest: x//d + R = (x + d*R)//d, R being an integer, and floor(floor(y)/c) =
    floor(y/c) for c > 0, for every integer x, whatever its sign. One spelling of the
    value: a chain of strided windows, ((h + 1)//4 + 1)//2, is (h + 5)//8 as torch.export
    writes it (PoolFormer declares its output [batch, 32, (h + 29)//32, ...], which was
    said to require an equation that always holds). None when a has no such term."""
    floors = [(mono, k) for mono, k in a.terms if any(at.kind == "floordiv" for at, _ in mono)]
    if len(floors) != 1:  # (two floors, h//4 + w//4, keep theirs: each is as good)
        return None
    if any(at.kind == "mod" for mono, _ in a.terms for at, _ in mono):
        return None  # (a length padded to whole windows, p + 2*p%3: _padded_form's)
    (mono, k), = floors
    atom = Expr({mono: k}).single_atom()  # (x//d alone in its term, coefficient 1)
    if atom is None or not atom.args[1].is_int or atom.args[1].value <= 0:
        return None
    d = atom.args[1].value
    rest = a - Expr({mono: 1})
    # (a lone x//d, R = 0, merges whatever x and d are, as it always did: no cycle grows
    # its divisor without an R; x itself with a division in it nests)
    if rest != ZERO and (d * c > MAX_MERGED or atom.depth > 1):
        return None
    return _floordiv_int(atom.args[0] + rest * d, d * c)


def _multiple_of(a: Expr, c: int) -> int | None:
    """A multiple M > c of c that a is a multiple of, by the moduli of its terms k*(x % M):
    then a//c is (M/c)*(a//M) exactly, and that is its canonical form. Torch pads a length
    to a multiple of 4 as m = s + 3*s%4 and halves it, m//2, beside 2*(m//4): equal, and
    Longformer's Expand of one by the other was a broadcast that may be 1 (or 0)."""
    for mono, _ in a.terms:
        if len(mono) == 1 and mono[0][1] == 1 and mono[0][0].kind == "mod":
            m = mono[0][0].args[1]
            if m.is_int and m.value > c and m.value % c == 0 and mod(a, m) == 0:
                return m.value
    return None


def _padded_factor(a: Expr, c: int) -> Expr | None:
    """a//c for a nonlinear a with a padded factor (_padded_form): that form's."""
    form = _padded_form(a)
    return None if form == a else floordiv(form, c)


def _padded_form(a: Expr, nonlinear_only: bool = True) -> Expr:
    """a with its factors L that are multiples of some M, lengths padded to whole windows
    (`x + (k*x)%M` with 1 + k = 0 mod M: the remainder by M simplifies to 0), written
    M*(L//M): a = L*q is M*(L//M)*q exactly. ViTDet pads the patches to whole windows of
    3, Hp = h + 2*h%3 and Wp alike, and takes Hp*Wp//3//3 windows and b*Hp*Wp*c // (9*(Hp//3)
    *(Wp//3)*c) as a Reshape's -1: expanded polynomials that no linear rule divided, now
    9*(Hp//3)*(Wp//3) and a multiple of it. (Nonlinear a only at the top: a linear L keeps
    its form, x + (k*x)%M, as everywhere.)"""
    if nonlinear_only and a.degree() < 2:
        return a
    for atom in sorted(a.atoms()):
        if atom.kind != "mod" or not atom.args[1].is_int or atom.args[1].value <= 1:
            continue
        m = atom.args[1].value
        # L = y + atom with y = -numerator (mod m), coefficients in [0, m)
        length = Expr({mono: (-k) % m for mono, k in atom.args[0].terms}) + Expr.atom(atom)
        if mod(length, m) != 0:
            continue
        q = exact_div(a, length)
        if q is not None:
            return floordiv(length, m) * m * _padded_form(q, False)
    return a


def ceildiv(a, b) -> Expr:
    """ceil(a / b): floor((a + c - 1) / c) for an integer c > 0, else -floor(-a / b)."""
    a, b = as_expr(a), as_expr(b)
    if b.is_int and b.value > 0:
        return floordiv(a + (b.value - 1), b)
    return -floordiv(-a, b)


def mod(a, b) -> Expr:
    a, b = as_expr(a), as_expr(b)
    key = ("mod", a, b)
    hit = _MEMO.get(key)
    return hit if hit is not None else _remember(key, _mod(a, b))


def _mod(a: Expr, b: Expr) -> Expr:
    if b.is_int:
        c = b.value
        if c == 0:
            raise ZeroDivisionError("modulo by zero in a dimension expression")
        if a.is_int:
            return Expr.const(a.value % c)
        if c < 0:  # python semantics: the sign follows the divisor
            return -mod(-a, -c)
        a = _inner_mods_lifted(a, c)
        rem = Expr({m: k % c for m, k in a.terms})
        if rem.is_int:
            return rem
        return Expr.atom(Atom("mod", (rem, Expr.const(c))))
    if exact_div(a, b) is not None:
        return ZERO
    single = b.single_atom()
    if single is not None:
        # the terms of a that hold b's atom are multiples of b: (a - k*b) % b = a % b, so
        # the numerator keeps the others ((h - 2)%h is (-2)%h, the form torch.roll's
        # exports compute)
        rest = Expr({m: c for m, c in a.terms if all(at != single for at, _ in m)})
        if len(rest.terms) < len(a.terms):
            return mod(rest, b)
    return Expr.atom(Atom("mod", (a, b)))


def _inner_mods_lifted(a: Expr, c: int) -> Expr:
    """a with each term k*(x % m), m a multiple of c, as k*x: x % m differs from x by a
    multiple of m, so of c, and the remainder by c is the same. `(n + 7*n%8) % 8` is
    (8*n) % 8 = 0 (a length padded to a multiple of 8, as torch exports it)."""
    if not any(len(m) == 1 and m[0][1] == 1 and m[0][0].kind == "mod"
               and m[0][0].args[1].is_int and m[0][0].args[1].value % c == 0
               for m, _ in a.terms):
        return a
    out = ZERO
    for m, k in a.terms:
        if len(m) == 1 and m[0][1] == 1 and m[0][0].kind == "mod" and \
                m[0][0].args[1].is_int and m[0][0].args[1].value % c == 0:
            out = out + m[0][0].args[0] * k
        else:
            out = out + Expr({m: k})
    return out


def maximum(*args) -> Expr:
    return _extremum_memo("max", args)


def minimum(*args) -> Expr:
    return _extremum_memo("min", args)


def _extremum_memo(kind: str, args: tuple) -> Expr:
    key = (kind,) + tuple([as_expr(a) for a in args])
    hit = _MEMO.get(key)
    return hit if hit is not None else _remember(key, _extremum(kind, list(key[1:])))


def _extremum(kind: str, args: list[Expr]) -> Expr:
    """max / min in the canonical form of a distributive lattice: a max of mins of
    arguments that are no extremum themselves (min(a, max(b, c)) is max(min(a, b),
    min(a, c))), no min holding all of another's arguments (absorption: max(a, min(a,
    b)) is a), and no argument another provably dominates. Over finitely many arguments
    there are then finitely many forms: without it, bindings substituted into open
    broadcasts nested max and min without end (explaining, min(k, max(k, min(k, s)))...)."""
    if kind == "max":
        terms = [t for a in args for t in _as_max_of_mins(a)]
    else:
        terms = [()]
        for a in args:
            terms = [t + u for t in terms for u in _as_max_of_mins(a)]
            if len(terms) > MAX_TERMS:
                raise ExprOverflow(f"min over more than {MAX_TERMS} alternatives")
    mins = [_undominated("min", list(t)) for t in terms]
    sets = [frozenset(m) for m in mins]
    kept = [m for i, m in enumerate(mins)  # a min over more arguments is at most this one
            if not any(sets[j] < sets[i] or (sets[j] == sets[i] and j < i)
                       for j in range(len(mins)))]
    exprs = [m[0] if len(m) == 1 else Expr.atom(Atom("min", tuple(m))) for m in kept]
    top = _undominated("max", exprs)
    return top[0] if len(top) == 1 else Expr.atom(Atom("max", tuple(top)))


def _as_max_of_mins(e: Expr) -> list[tuple]:
    """e as the terms of a max, each the arguments of a min (e itself: [(e,)])."""
    atom = e.single_atom()
    if atom is not None and atom.kind == "max":
        return [t for a in atom.args for t in _as_max_of_mins(a)]
    if atom is not None and atom.kind == "min":
        return [tuple(atom.args)]  # canonical already: its arguments are no extremum
    return [(e,)]


def _undominated(kind: str, items: list[Expr]) -> list[Expr]:
    """The arguments of a max or min without those another provably dominates (integers
    folded into one), in canonical order."""
    pick = max if kind == "max" else min
    ints = [a.value for a in items if a.is_int]
    rest = sorted({a for a in items if not a.is_int}, key=lambda e: e.key)
    if ints:
        rest.append(Expr.const(pick(ints)))
    kept = [a for i, a in enumerate(rest)
            if not any(j != i and _dominates(kind, b, a, tie_wins=j < i)
                       for j, b in enumerate(rest))]
    kept.sort(key=lambda e: e.key)
    return kept


def _dominates(kind: str, b: Expr, a: Expr, tie_wins: bool) -> bool:
    """b makes a redundant in max (b >= a provably) or min (b <= a provably); when both
    directions hold (a == b everywhere) only the earlier argument is kept."""
    lo, hi = bounds(b - a)
    if lo < 0 < hi:
        lo, hi = bounds(without_symbol_content(b - a))
    if lo < 0 < hi and (a.is_int or b.is_int):
        lo, hi = to_residues(b - a, lo, hi)
    if lo < 0 < hi:
        big, small = (b, a) if kind == "max" else (a, b)
        if factors_at_least(big, small):  # (both ways: equal everywhere, a tie)
            return tie_wins or not factors_at_least(small, big)
    if kind == "max":
        return lo > 0 or (lo >= 0 and (hi > 0 or tie_wins))
    return hi < 0 or (hi <= 0 and (lo < 0 or tie_wins))


def without_symbol_content(d: Expr) -> Expr:
    """d divided by the symbols common to all its terms: each is >= 1 (never 0), so the
    quotient has d's sign and d = 0 the same solutions (equation.reduced), and its interval
    can decide where d's cannot (s0*s1 - s1 is s1*(s0 - 1), so max(s0*s1, s1) is s0*s1:
    a Scan state broadcast with its own element count nested max(s0*max(s0*s1, s1), s1)...
    without end, fuzz --kind control --seed 116, graph 686). A name the solver made is
    divided out too: in a solve each is a body's or a call's copy of a graph's name
    (`_i1_t`: an If branch reshaping x [b, t, 4] to [b, 3, 4] binds its t = 3 only so) or
    a dim a JSON graph leaves unnamed (`?`, `_1`), each >= 1 wherever it is a size; the
    names that may be 0 (an axis without a value, voids.lp) carry no value in the program."""
    common = None
    for mono, _ in d.terms:  # (a count as printed may be 0: never divided out)
        syms = {a: p for a, p in mono if a.kind == "sym" and not a.args[0].startswith(COUNT_PREFIX)}
        common = syms if common is None else {
            a: min(k, syms[a]) for a, k in common.items() if a in syms}
    if not common:  # (d = 0, or no symbol in every term)
        return d
    q = exact_div(d, Expr({tuple(sorted(common.items(), key=lambda ap: ap[0].key)): 1}))
    return d if q is None else q


def exact_div(a: Expr, b: Expr) -> Expr | None:
    """a / b when b divides a as polynomials (multivariate division), else None."""
    if b == ZERO:
        return None
    if a == ZERO:
        return ZERO
    lead_mono, lead_c = b.terms[0]
    quot = ZERO
    rest = a
    for _ in range(4 * len(a.terms) + 8):
        if rest == ZERO:
            return quot
        mono, c = rest.terms[0]
        if c % lead_c:
            return None
        m = _mono_div(mono, lead_mono)
        if m is None:
            return None
        t = Expr({m: c // lead_c})
        quot = quot + t
        rest = rest - t * b
    return None


def _mono_div(m1, m2):
    powers = dict(m1)
    for a, p in m2:
        have = powers.get(a, 0)
        if have < p:
            return None
        if have == p:
            del powers[a]
        else:
            powers[a] = have - p
    return tuple(sorted(powers.items(), key=lambda ap: ap[0].key))


def apply(kind: str, args: list[Expr]) -> Expr:
    """Rebuild an atom of the given kind from (substituted) arguments."""
    if kind == "floordiv":
        return floordiv(*args)
    if kind == "mod":
        return mod(*args)
    if kind == "max":
        return maximum(*args)
    if kind == "min":
        return minimum(*args)
    if kind == "ragged":
        return Expr.atom(Atom("ragged", ()))
    raise ValueError(kind)
