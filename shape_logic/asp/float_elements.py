"""The @-functions on float elements (a Cast of integers to floats, a Pow in a float
type, a float element that holds an integer): exact arithmetic only where the float type
computes it exactly (float_ints.py). A mixin of `Functions` (functions.py)."""
from __future__ import annotations

from fractions import Fraction

import clingo

from . import float_ints
from .lifting import FAILURES
from .relating import real_of as _real
from .terms import expr_to_symbol, symbol_to_expr

Number, String, Function = clingo.Number, clingo.String, clingo.Function


class FloatElements:
    """@real, @float_pow, @float_int and @int_held."""

    def real(self, a: clingo.Symbol):
        """An integer element as a real, real("3.0") (Cast of integers to floats)."""
        try:
            e = symbol_to_expr(a)
        except FAILURES:
            return []
        return Function("real", [String(repr(float(e.value)))]) if e.is_int else []

    def float_pow(self, a: clingo.Symbol, b: clingo.Symbol, d: clingo.Symbol):
        """@float_pow(X, E, D): Pow of known elements X and E (integers or real(..)) in the
        float type D, where it is an integer computed exactly (float_ints.power)."""
        try:
            x, e = (Fraction(_real(s)) if s.type == clingo.SymbolType.Function
                    else Fraction(symbol_to_expr(s).value) for s in (a, b))
            out = float_ints.power(x, e, d.name)
        except FAILURES + (ValueError, OverflowError, TypeError):
            return []
        return [] if out is None else expr_to_symbol(out)

    def float_pow_open(self, a: clingo.Symbol, b: clingo.Symbol, d: clingo.Symbol):
        """1 where @float_pow(a, b, d) gives nothing (Pow.lp's value_open)."""
        return clingo.Number(1) if self.float_pow(a, b, d) == [] else []

    def float_int(self, a: clingo.Symbol, d: clingo.Symbol):
        """@float_int(V, D): the integer a float element of dtype D holds, where it holds it
        exactly (float_ints.py): V an integer dim, or real(..) of an integer-valued float."""
        try:
            if a.type == clingo.SymbolType.Function and a.name == "real":
                e = float_ints.integer_of_real(_real(a), d.name)
            else:
                e = symbol_to_expr(a)
                e = e if float_ints.held(e, d.name) else None
        except FAILURES + (ValueError, OverflowError):
            return []
        return [] if e is None else expr_to_symbol(e)

    def int_held(self, a: clingo.Symbol, d: clingo.Symbol):
        """@int_held(V, D): 1 when the 32-bit integer type D holds the symbolic value V
        (float_ints.int_held: under the assumption that dims are below 2^24), else 0."""
        try:
            return Number(int(float_ints.int_held(symbol_to_expr(a), d.name)))
        except FAILURES:
            return Number(0)
