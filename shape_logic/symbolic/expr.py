"""Symbolic integer dimensions in canonical normal form.

An `Expr` is a polynomial with integer coefficients over *atoms*.  An atom is a
symbol (`n`) or an opaque application that does not distribute over `+`:
floored division, modulo, max and min (ceildiv is rewritten into floored
division).  The normal form is unique: terms are sorted, coefficients are
non-zero, atoms are themselves in normal form, so two equal expressions print
identically (`n*(m*2)` and `2*m*n` are one form).

Symbols stand for dimensions, which are integers >= 1 unless bound to a
literal (a literal dim may be 0); `bounds` relies on that.
"""
from __future__ import annotations

from functools import reduce
from math import gcd
from typing import Iterable

# Caps that keep arithmetic finite on inconsistent graphs (ASP-NOTES §2).
MAX_TERMS = 64
MAX_DEGREE = 12
MAX_ABS = 2**64  # int64 attribute values (INT64_MAX in Slice) must fit
# floor divisions, mods, maxes and mins nested in one another: a Col2Im whose image size
# is its own input's axis s derives that axis again as (s + 1 - 1)//2 + 1 of each value it
# has, and the equations between the values (s in 1..2) bind nothing, so without a cap
# the values nest without end (a stack of strided convolutions nests one per layer)
MAX_DEPTH = 12


class ExprOverflow(ArithmeticError):
    """The result would exceed the caps: too many terms, too high a degree, too big a number."""


class Atom:
    """An indivisible factor of a monomial."""

    __slots__ = ("kind", "args", "key", "_hash", "_syms", "_bounds", "depth")

    # kind order fixes the canonical order of atoms of different kinds
    KINDS = ("sym", "floordiv", "mod", "max", "min", "ragged")

    def __init__(self, kind: str, args: tuple):
        self.kind = kind
        self.args = args
        if kind == "sym":
            self.key = (0, args[0])
            self._syms = frozenset(args)
            self.depth = 0
        else:
            self.key = (Atom.KINDS.index(kind), tuple(a.key for a in args))
            self._syms = None
            self.depth = 1 + max((b.depth for a in args for mono, _ in a.terms
                                  for b, _ in mono), default=0)
            if self.depth > MAX_DEPTH:
                raise ExprOverflow(f"{kind} nested {self.depth} deep")
        self._hash = hash(self.key)
        self._bounds = None  # bounds.atom_bounds, computed once (atoms are immutable)

    def __eq__(self, other):
        return isinstance(other, Atom) and self.key == other.key

    def __hash__(self):
        return self._hash

    def __lt__(self, other):
        return self.key < other.key

    def symbol_set(self) -> frozenset:
        if self._syms is None:
            self._syms = frozenset().union(*(a.symbol_set() for a in self.args))
        return self._syms

    def symbols(self) -> set[str]:
        return set(self.symbol_set())


def _monomial_key(mono):
    return tuple((a.key, p) for a, p in mono)


def _degree(mono) -> int:
    return sum(p for _, p in mono)


def _term_order(item):
    mono, _ = item
    # higher degree first, then by atoms; the constant term (empty monomial) is last
    return (-_degree(mono), _monomial_key(mono))


def _check_int(v: int) -> int:
    if abs(v) > MAX_ABS:
        raise ExprOverflow(f"integer {v} exceeds 2^64")
    return v


# monomial -> (sort key, monomial key, degree): monomials recur in every expression built
# from them, and their keys only depend on the atoms (equal monomials have equal keys)
_MONO_INFO: dict = {}
_MONO_INFO_MAX = 200_000


def _mono_info(mono):
    if len(_MONO_INFO) >= _MONO_INFO_MAX:
        _MONO_INFO.clear()
    key = _monomial_key(mono)
    deg = _degree(mono)
    info = _MONO_INFO[mono] = ((-deg, key), key, deg)
    return info


def _first(item):
    return item[0]


class Expr:
    """An immutable symbolic integer in canonical form."""

    __slots__ = ("terms", "key", "_hash", "_str", "_syms", "_bounds")

    def __init__(self, terms: dict):
        info = _MONO_INFO
        items = []
        for m, c in terms.items():
            if c:
                i = info.get(m)
                items.append((i if i is not None else _mono_info(m), m, c))
        if len(items) > MAX_TERMS:
            raise ExprOverflow(f"expression with {len(items)} terms")
        for i, _, c in items:
            if c > MAX_ABS or c < -MAX_ABS:
                _check_int(c)
            if i[2] > MAX_DEGREE:
                raise ExprOverflow(f"expression of degree {i[2]}")
        if len(items) > 1:
            # the sort keys (-degree, monomial key) of distinct monomials differ
            items.sort(key=_first)
        self.terms = tuple([(m, c) for _, m, c in items])
        self.key = tuple([(i[1], c) for i, _, c in items])
        self._hash = hash(self.key)
        self._str = None
        self._syms = None  # symbol_set(), computed once
        self._bounds = None  # bounds.bounds, computed once

    # ----- construction
    @staticmethod
    def const(v: int) -> "Expr":
        v = int(v)
        e = _CONSTS.get(v)
        if e is None:
            e = Expr({(): _check_int(v)})
            if -_SMALL_CONST <= v <= _SMALL_CONST:
                _CONSTS[v] = e
        return e

    @staticmethod
    def sym(name: str) -> "Expr":
        e = _SYMS.get(name)
        if e is None:
            e = Expr.atom(Atom("sym", (name,)))
            if len(_SYMS) < 100_000:
                _SYMS[name] = e
        return e

    @staticmethod
    def atom(a: Atom) -> "Expr":
        return Expr({((a, 1),): 1})

    # ----- inspection
    @property
    def is_int(self) -> bool:
        return not self.terms or (len(self.terms) == 1 and self.terms[0][0] == ())

    @property
    def value(self) -> int:
        """The integer value; only for `is_int` expressions."""
        return self.terms[0][1] if self.terms else 0

    def constant_term(self) -> int:
        return self.terms[-1][1] if self.terms and self.terms[-1][0] == () else 0

    def single_atom(self) -> Atom | None:
        """The atom if this expression is exactly one atom with coefficient 1."""
        if len(self.terms) == 1:
            mono, c = self.terms[0]
            if c == 1 and len(mono) == 1 and mono[0][1] == 1:
                return mono[0][0]
        return None

    def symbol_set(self) -> frozenset:
        """The symbols occurring in this expression (shared, immutable)."""
        if self._syms is None:
            self._syms = frozenset().union(*(a.symbol_set() for mono, _ in self.terms
                                             for a, _ in mono))
        return self._syms

    def symbols(self) -> set[str]:
        return set(self.symbol_set())

    def atoms(self) -> set[Atom]:
        return {a for mono, _ in self.terms for a, _ in mono}

    def degree(self) -> int:
        return max((_degree(m) for m, _ in self.terms), default=0)

    def __eq__(self, other):
        if isinstance(other, int):
            return self.is_int and self.value == other
        return isinstance(other, Expr) and self.key == other.key

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Expr({str(self)!r})"

    def __str__(self):
        if self._str is None:  # immutable, so the canonical text is computed once
            self._str = _format(self)
        return self._str

    # ----- ring operations
    def __add__(self, other) -> "Expr":
        other = as_expr(other)
        acc = dict(self.terms)
        for m, c in other.terms:
            acc[m] = acc.get(m, 0) + c
        return Expr(acc)

    __radd__ = __add__

    def __neg__(self) -> "Expr":
        return Expr({m: -c for m, c in self.terms})

    def __sub__(self, other) -> "Expr":
        other = as_expr(other)
        acc = dict(self.terms)
        for m, c in other.terms:
            acc[m] = acc.get(m, 0) - c
        return Expr(acc)

    def __rsub__(self, other) -> "Expr":
        return as_expr(other) - self

    def __mul__(self, other) -> "Expr":
        other = as_expr(other)
        acc: dict = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = _mono_mul(m1, m2)
                acc[m] = acc.get(m, 0) + c1 * c2
        return Expr(acc)

    __rmul__ = __mul__

    def scale_div(self, k: int) -> "Expr":
        """Divide every coefficient by k (the caller guarantees exactness)."""
        return Expr({m: c // k for m, c in self.terms})

    def content(self) -> int:
        """gcd of all coefficients (0 for the zero expression)."""
        return reduce(gcd, (abs(c) for _, c in self.terms), 0)

    # ----- substitution
    def subs(self, mapping: dict[str, "Expr"]) -> "Expr":
        """Replace symbols by expressions and renormalize (atoms included)."""
        if not mapping or mapping.keys().isdisjoint(self.symbol_set()):
            return self
        total = ZERO
        for mono, c in self.terms:
            term = Expr.const(c)
            for a, p in mono:
                f = _subs_atom(a, mapping)
                for _ in range(p):
                    term = term * f
            total = total + term
        return total

    def subs_atoms(self, mapping: dict) -> "Expr":
        """Replace atoms (at any depth: inside floors, mods, maxes) by expressions, and
        renormalize."""
        syms = self.symbol_set()
        if not mapping or all(a.symbol_set().isdisjoint(syms) for a in mapping):
            return self
        total, changed = ZERO, False
        for mono, c in self.terms:
            term = Expr.const(c)
            for a, p in mono:
                f = _subs_atom_deep(a, mapping)
                changed = changed or f.single_atom() is not a
                for _ in range(p):
                    term = term * f
            total = total + term
        return total if changed else self


def _subs_atom_deep(a: Atom, mapping: dict) -> "Expr":
    from . import ops

    hit = mapping.get(a)
    if hit is not None:
        return hit
    if a.kind == "sym":
        return Expr.atom(a)
    args = [x.subs_atoms(mapping) for x in a.args]
    if all(x is y for x, y in zip(args, a.args)):
        return Expr.atom(a)
    return ops.apply(a.kind, args)


def _mono_mul(m1, m2):
    if not m1:
        return m2
    if not m2:
        return m1
    powers = dict(m1)
    for a, p in m2:
        powers[a] = powers.get(a, 0) + p
    return tuple(sorted(powers.items(), key=lambda ap: ap[0].key))


def _subs_atom(a: Atom, mapping) -> Expr:
    from . import ops

    if a.kind == "sym":
        return mapping.get(a.args[0], Expr.atom(a))
    args = [x.subs(mapping) for x in a.args]
    return ops.apply(a.kind, args)


def _format(e: Expr) -> str:
    from .printer import format_expr

    return format_expr(e)


def as_expr(x) -> Expr:
    if isinstance(x, Expr):
        return x
    if isinstance(x, int):
        return Expr.const(x)
    raise TypeError(f"not a dimension expression: {x!r}")


# Exprs are immutable: the small constants and the symbols are made once and shared
_SMALL_CONST = 1 << 16
_CONSTS: dict = {}
_SYMS: dict = {}
ZERO = Expr.const(0)
ONE = Expr.const(1)


def lcm_all(values: Iterable[int]) -> int:
    out = 1
    for v in values:
        out = out * v // gcd(out, v)
    return out
