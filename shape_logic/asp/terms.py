"""Dimension expressions as clingo terms, and ASP fact syntax.

A dim is a clingo Number when it is an integer of magnitude below 2^30 (clingo
integers are 32-bit and sums must not overflow); every other dim - symbolic,
or a big integer - is a String holding its canonical form.  So in a rule,
`E < 1073741824` holds exactly for the integer dims (strings sort after numbers).
"""
from __future__ import annotations

from functools import lru_cache

import clingo

from ..symbolic.expr import Expr
from ..symbolic.parse import parse_dim

SMALL = 2**30


class NotADim(ValueError):
    """A term that is not a dimension expression (a real, a name...)."""


@lru_cache(maxsize=200_000)
def expr_to_symbol(e: Expr) -> clingo.Symbol:
    if e.is_int and abs(e.value) < SMALL:
        return clingo.Number(e.value)
    return clingo.String(str(e))


@lru_cache(maxsize=200_000)
def symbol_to_expr(sym: clingo.Symbol) -> Expr:
    if sym.type == clingo.SymbolType.Number:
        return Expr.const(sym.number)
    if sym.type == clingo.SymbolType.String:
        try:
            return parse_dim(sym.string)
        except ValueError as e:
            raise NotADim(str(e)) from None
    raise NotADim(str(sym))


def expr_fact_text(e: Expr) -> str:
    """The ASP text of a dim (a number or a quoted canonical string)."""
    if e.is_int and abs(e.value) < SMALL:
        return str(e.value)
    return quote(str(e))


def int_text(v: int) -> str:
    return str(v) if abs(v) < SMALL else quote(str(v))


@lru_cache(maxsize=1 << 20)  # a tensor's name is quoted in every fact about it
def quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
