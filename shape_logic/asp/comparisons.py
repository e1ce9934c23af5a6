"""The tests rule files call on dim terms (1 true, 0 false; @le: 2 unknown), and @least: a
mixin of `Functions` (functions.py). With the solve's floors, bounds take each floored
symbol to be at least its floor (asp/floors.py, Relating._bounds)."""
from __future__ import annotations

import clingo

from ..scopes import name_scope, scope_expr, scoped_name, unscoped_name
from ..symbolic import ops
from ..symbolic.bounds import bounds, not_one
from ..symbolic.ceilings import broadcast_ceiling, least_value
from ..symbolic.equation import reduced
from ..symbolic.expr import Expr
from ..symbolic.values import function_of
from . import floors
from .lifting import FAILURES, remembered
from .terms import expr_to_symbol, symbol_to_expr

Number, String, Function = clingo.Number, clingo.String, clingo.Function


class Comparisons:
    """@not_one, @negative, @positive, @least, @least_nonnegative, @least_in, @most_in,
    @if_join, @inherit, @le, @one_where, @broadcast_range, @most_range, @least_roots,
    @least_root_from, @several_symbols."""

    @remembered
    def not_one(self, a: clingo.Symbol):
        try:
            return Number(int(not_one(symbol_to_expr(a), self._bounds)))
        except FAILURES:
            return Number(0)

    @remembered
    def negative(self, a: clingo.Symbol):
        try:
            return Number(int(self._bounds(symbol_to_expr(a))[1] < 0))
        except FAILURES:
            return Number(0)

    @remembered
    def positive(self, a: clingo.Symbol):
        """1 when the dim is provably >= 1."""
        try:
            return Number(int(self._bounds(symbol_to_expr(a))[0] >= 1))
        except FAILURES:
            return Number(0)

    @remembered
    def least(self, e: clingo.Symbol):
        """@least(E): (S, L) for a value E >= 1 of one symbol S, where S >= L > 1 follows
        (floors.least); no term otherwise."""
        return _bound_term(floors.least, lambda: symbol_to_expr(e))

    @remembered
    def least_nonnegative(self, e: clingo.Symbol):
        """@least_nonnegative(E): (S, L) for a value E >= 0 of one symbol S, where S >= L > 1
        follows (floors.least_nonnegative); no term otherwise."""
        return _bound_term(floors.least_nonnegative, lambda: symbol_to_expr(e))

    @remembered
    def least_in(self, e: clingo.Symbol, k: clingo.Symbol):
        """@least_in(E, K): @least of E in scope K's names (an If's condition, E >= 1, in
        its branch K's copies of the names around it: encodings/conditions.lp). Renamed
        as it is: scope K's own bindings are not substituted, or the floor of a name the
        branch binds below it (`_i2_t = 3` where t > 4) would be lost with it."""
        return _bound_term(floors.least, lambda: scope_expr(symbol_to_expr(e), k.number))

    @remembered
    def most_in(self, e: clingo.Symbol, k: clingo.Symbol):
        """@most_in(E, K): (S, H) for E >= 1 in scope K's names, of one symbol S, where
        S <= H follows (floors.most: the else-branch of t > 4 has 5 - t >= 1, t <= 4)."""
        return _bound_term(floors.most, lambda: scope_expr(symbol_to_expr(e), k.number))

    @remembered
    def most_range(self, e: clingo.Symbol):
        """@most_range(E): (S, L, H) for E >= 1 of one symbol S (a graph's name), where
        S <= H follows (floors.most) and S >= L is all that is known below it (1, or 0 for
        a name the solver made); no term otherwise."""
        try:
            hit = floors.most(symbol_to_expr(e))
        except FAILURES + (ValueError,):
            return []
        return _range_term(None if hit is None else (hit[0], least_value(hit[0]), hit[1]))

    @remembered
    def least_roots(self, e1: clingo.Symbol, e2: clingo.Symbol):
        """@least_roots(E1, E2): (S, L) for each graph's name S of an equation E1 = E2 that
        could not be solved, where S >= L > 1 follows (floors.least_roots)."""
        if self.refuses_floor_search():
            return []
        try:
            hits = floors.least_roots(reduced(symbol_to_expr(e1) - symbol_to_expr(e2)))
        except FAILURES + (ValueError,):
            return []
        return [Function("", [String(s), Number(v)]) for s, v in hits
                if name_scope(s) is None]

    @remembered
    def least_root_from(self, e1: clingo.Symbol, e2: clingo.Symbol, s: clingo.Symbol,
                        floor: clingo.Symbol):
        """@least_root_from(E1, E2, S, L): the greater floor of S that the equation E1 = E2
        of S alone gives above floor L (floors.least_root_from); no term otherwise."""
        if self.refuses_floor_search():
            return []
        try:
            x, y = symbol_to_expr(e1), symbol_to_expr(e2)
            if x.symbol_set() | y.symbol_set() != {s.string}:
                return []  # (most unsolved pairs: not reduced for nothing, ~60 ms of
                # PP-OCRv4's recognizer)
            hit = floors.least_root_from(reduced(x - y), s.string, floor.number)
        except FAILURES + (ValueError,):
            return []
        return [] if hit is None else Number(hit)

    @remembered
    def several_symbols(self, e: clingo.Symbol):
        """1 when the dim value has two symbols or more, else 0."""
        try:
            return Number(int(len(symbol_to_expr(e).symbol_set()) > 1))
        except FAILURES + (ValueError,):
            return Number(0)

    @remembered
    def if_join(self, a: clingo.Symbol, b: clingo.Symbol, ka: clingo.Symbol,
                kb: clingo.Symbol, chain: clingo.Symbol):
        """@if_join(A, B, KA, KB, C): min(A, B) or max(A, B) (the names around an If) where
        it is A under branch KA's bounds and B under KB's (encodings/conditions.lp): an If
        output that is A where the one branch runs and B where the other does is it in
        every run. `if t > 4: x[:, :4] else: x` gives 4 where _i1_t >= 5 and t where
        _i2_t <= 4: min(4, t). No term otherwise (without the solve's bounds, none), nor
        where A or B has a name of a scope other than the If's and those around it (C, a
        chain (K, (P, ...))): a body's inside a branch names nothing where the other runs."""
        if not self.floors:
            return []
        around = {0}
        while chain.arguments:
            around.add(chain.arguments[0].number)
            chain = chain.arguments[1]
        try:
            x, y = symbol_to_expr(a), symbol_to_expr(b)
            if any((name_scope(s) or 0) not in around
                   for s in x.symbol_set() | y.symbol_set()):
                return []
            for c in (ops.apply("min", [x, y]), ops.apply("max", [x, y]), x, y):
                if self._as_in(c, x, ka.number) and self._as_in(c, y, kb.number):
                    return expr_to_symbol(c)
        except FAILURES:
            return []
        return []

    def _as_in(self, c: Expr, e: Expr, k: int) -> bool:
        """c is e in scope k's names under the solve's bounds."""
        c, e = scope_expr(c, k), scope_expr(e, k)
        return self.floors.simplified(c) == self.floors.simplified(e) or \
            self._bounds(c - e) == (0, 0) or self.floors.vanishes(c - e)

    @remembered
    def inherit(self, s: clingo.Symbol, k: clingo.Symbol, inner: clingo.Symbol):
        """@inherit(S, K, K2): scope K2's copy of S, a name of scope K (0: the graph's)
        that K2, a body in K, reads through its copies; no term for a name of another
        scope. A bound of S holds of the copy (encodings/conditions.lp)."""
        if s.type != clingo.SymbolType.String or (name_scope(s.string) or 0) != k.number:
            return []
        return String(scoped_name(unscoped_name(s.string), inner.number))

    @remembered
    def le(self, a: clingo.Symbol, b: clingo.Symbol):
        """1 when provably a <= b, 0 when provably a > b, 2 when unknown."""
        try:
            lo, hi = self._bounds(symbol_to_expr(b) - symbol_to_expr(a))
        except FAILURES:
            return Number(2)
        return Number(1 if lo >= 0 else 0 if hi < 0 else 2)

    @remembered
    def one_where(self, e: clingo.Symbol, c: clingo.Symbol):
        """1 when dim e is 1 only where c >= 0 (one_only_where), else 0."""
        try:
            return Number(int(one_only_where(symbol_to_expr(e), symbol_to_expr(c),
                                             self._bounds)))
        except FAILURES + (ValueError, ZeroDivisionError):
            return Number(0)

    @remembered
    def broadcast_range(self, a: clingo.Symbol, b: clingo.Symbol):
        """@broadcast_range(A, B): (S, L, H) for two dims of one symbol S that broadcast
        only where L <= S <= H (symbolic/ceilings.py: a table of 64 rows sliced to s
        positions, min(64, s), against s); no term otherwise."""
        try:
            hit = broadcast_ceiling(symbol_to_expr(a), symbol_to_expr(b))
        except FAILURES + (ValueError,):
            return []
        return _range_term(hit)


def _range_term(hit):
    """The term (S, L, H) of a range of the graph's name S, or no term (none found, or a
    body's own name: its range holds only where the body runs)."""
    if hit is None or name_scope(hit[0]) is not None:
        return []
    return Function("", [String(hit[0]), Number(hit[1]), Number(hit[2])])


def _bound_term(find, expr):
    """The term (S, B) of `find(expr())`'s symbol S and bound B (floors.least, most), or
    no term (none found, or the expression not one the arithmetic takes)."""
    try:
        hit = find(expr())
    except FAILURES + (ValueError,):
        return []
    return [] if hit is None else Function("", [String(hit[0]), Number(hit[1])])


# the values of a dim's one symbol at which one_only_where evaluates it
ONE_CAP = 64


def one_only_where(e: Expr, c: Expr, bounds_of=bounds) -> bool:
    """e = 1 implies c >= 0, whatever the symbols are: e is never 1 (not_one), or e has one
    symbol s, c is provably >= 0 at each s in 1..ONE_CAP where e is 1, and past ONE_CAP
    (s = ONE_CAP + s', s' >= 1) e is provably not 1. So exact whatever the form of e.
    (`bounds_of`, the solve's floors, only for e itself: s' is no symbol they bound.)"""
    if not_one(e, bounds_of):
        return True
    syms = e.symbol_set()
    if len(syms) != 1:
        return False
    (s,) = syms
    at = function_of(e, s)
    for v in range(1, ONE_CAP + 1):
        if at(v) == 1 and bounds(c.subs({s: Expr.const(v)}))[0] < 0:
            return False
    return not_one(e.subs({s: Expr.sym(s) + ONE_CAP}))

