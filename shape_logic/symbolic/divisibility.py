"""Equations that say a symbol is a multiple: printed as such, and what such a condition
implies left out of the constraints (decode.py, requirements.py).

A product of floor divisions against its numerators, `16*(h//4)*(w//4) = h*w` (torch.export's
Swin2SR windows), or `2*(h//2) = h` (a pool and its upsampling), holds exactly where each
numerator is a multiple of its divisor: `h%4 = 0, w%4 = 0`, which is what a reader wants to
know, and beside `h%4 = 0` the equations that hold at h = 4t for every t say nothing more.
"""
from __future__ import annotations

from . import ops
from .bounds import bounds, factor_pairs
from .ceilings import least_value
from .expr import ZERO, Expr, ExprOverflow
from .periodic import zero_where_multiple


def divisibility(a: Expr, b: Expr) -> list[tuple[Expr, Expr]] | None:
    """a = b as the divisibility conditions it amounts to, [(x % k, 0), ...], when one side
    is c times a product of floor divisions x//k (integers k >= 2, each x >= 1) and the
    other c times the product of the x's over that of the k's: k*(x//k) <= x with equality
    exactly where x % k = 0, so the products of positive factors are equal exactly where
    every factor is.
    torch.export's Swin2SR windows leave `16*(h//4)*(w//4) = h*w`: h%4 = 0 and w%4 = 0; a
    pool by 2 and its upsampling `2*(h//2) = h`: h%2 = 0. None for another form."""
    for p, q in ((a, b), (b, a)):
        found = _divisible_form(p, q) or _factorwise_form(p, q)
        if found is not None:
            return found
    return _periodic_form(a, b)


def _factorwise_form(p: Expr, q: Expr) -> list[tuple[Expr, Expr]] | None:
    """The conditions of p = q when both are c times a product of factors, each of p's
    >= 1 and paired with one of q's that it is at least (bounds.factor_pairs): q is then
    >= 1 too, and the products of factors x >= y >= 1 are equal exactly where every pair
    is, each pair's equation of one symbol its condition (`_periodic_form`). HF Hiera's
    patches against its resized position table, ((h + 1)//2)*((w + 1)//2) =
    (h//2)*(w//2): h%2 = 0, w%2 = 0. None when a pair is not of one symbol or has none."""
    pairs = factor_pairs(p, q) if len(p.terms) == 1 and len(q.terms) == 1 and \
        p.terms[0][1] == q.terms[0][1] else None
    if pairs is None or any(bounds(Expr.atom(x))[0] < 1 for x, _ in pairs):
        return None
    out: list = []
    for x, y in pairs:
        if x == y:
            continue
        found = _periodic_form(Expr.atom(x), Expr.atom(y))
        if found is None:
            return None
        out += found
    return out or None


def _periodic_form(a: Expr, b: Expr) -> list[tuple[Expr, Expr]] | None:
    """[(s%K, 0)] when a = b, of one symbol s, holds exactly where s is a multiple of K
    (symbolic/periodic.py: tf2onnx's crops, `2*((h + 1)//2) = h`)."""
    s = _only_symbol(a - b)
    condition = None if s is None else _multiple_condition(a - b, s)
    return None if condition is None else [condition]


def _only_symbol(e: Expr) -> str | None:
    """e's symbol when it has exactly one."""
    syms = e.symbol_set()
    return next(iter(syms)) if len(syms) == 1 else None


def _multiple_condition(d: Expr, s: str) -> tuple[Expr, Expr] | None:
    """(s%K, 0) when d, of the symbol s alone, is 0 exactly where s is a multiple of a K
    >= 2 (symbolic/periodic.py), else None."""
    k = zero_where_multiple(d, s, least_value(s))
    if k is None or k < 2:
        return None
    return ops.mod(Expr.sym(s), Expr.const(k)), ZERO


def _divisible_form(p: Expr, q: Expr) -> list[tuple[Expr, Expr]] | None:
    if len(p.terms) != 1 or len(q.terms) != 1:
        return None
    (mono, c), (_, cq) = p.terms[0], q.terms[0]
    if c <= 0 or cq <= 0:
        return None
    whole, scale = Expr.const(c), 1  # c times the x's; the product of the k's
    conditions = []
    for atom, power in mono:
        if atom.kind != "floordiv":
            return None
        x, k = atom.args
        if not k.is_int or k.value < 2 or bounds(x)[0] < 1:
            return None
        for _ in range(power):
            whole, scale = whole * x, scale * k.value
        conditions.append((ops.mod(x, k), ZERO))
    return conditions if q * scale == whole else None


def joined_multiples(equations: list) -> list:
    """The equations (pairs a = b), those of one symbol s that together hold exactly where
    s is a multiple of K replaced by `s%K = 0` (symbolic/periodic.py): tf2onnx's Keras
    U-Net crops to `2*((h + 3)//4) = (h + 1)//2` beside `h%2 = 0`, which is h%4 = 0."""
    groups: dict[str, list] = {}
    for a, b in equations:
        s = _only_symbol(a - b)
        if s is not None:
            groups.setdefault(s, []).append((a, b))
    joined = {}
    for s, group in groups.items():
        if len(group) < 2:
            continue
        try:  # (zero exactly where every one is: the sum of their magnitudes)
            total = sum((ops.maximum(a - b, b - a) for a, b in group), ZERO)
        except ExprOverflow:
            continue
        condition = _multiple_condition(total, s)
        if condition is not None:
            joined[s] = condition
    if not joined:
        return list(equations)
    out = [(a, b) for a, b in equations if _only_symbol(a - b) not in joined]
    return out + list(joined.values())


def without_implied_by_divisors(equations: list) -> list:
    """The equations (pairs a = b) less those that the divisibility conditions among them
    imply: for each symbol s with conditions s%k = 0 whose largest k, K, every other k
    divides, s is K*t (t >= 1, as s >= 1), and an equation that holds at s = K*t whatever
    t is says nothing more (`h%2 = 0` and `2*(h//4) = h//2` beside `h%4 = 0`: a UNet pooled
    twice). The rest are kept as they are, the conditions with K among them."""
    multiples: dict[str, set] = {}
    for a, b in equations:
        found = divides(a, b)
        if found is not None:
            multiples.setdefault(found[0], set()).add(found[1])
    tops = {s: max(ks) for s, ks in multiples.items() if all(max(ks) % k == 0 for k in ks)}
    if not tops:
        return list(equations)
    mapping = {s: Expr.sym(f"_{s}_multiple") * k for s, k in tops.items()}  # (no graph's name)
    kept = []
    for a, b in equations:
        found = divides(a, b)
        if found is not None and tops.get(found[0]) == found[1]:
            kept.append((a, b))  # (the condition that says s is K*t)
            continue
        try:
            if (a - b).subs(mapping) == ZERO:
                continue  # implied
        except ExprOverflow:
            pass
        kept.append((a, b))
    return kept

def divides(a: Expr, b: Expr) -> tuple[str, int] | None:
    """(s, k) when a = b is s%k = 0 for a symbol s and an integer k >= 2."""
    atom = a.single_atom()
    if b != ZERO or atom is None or atom.kind != "mod":
        return None
    x, k = atom.args
    name = x.single_atom()
    if name is None or name.kind != "sym" or not k.is_int or k.value < 2:
        return None
    return name.args[0], k.value


def condition_of(s: str, a: Expr, b: Expr) -> tuple[Expr, Expr] | None:
    """The condition s%k = 0 on the symbol s among those a = b amounts to (`divisibility`),
    or None."""
    for m, z in divisibility(a, b) or ():
        found = divides(m, z)
        if found is not None and found[0] == s:
            return m, z
    return None
