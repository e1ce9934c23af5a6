"""Lifting Python functions on dimension expressions to @-functions on clingo terms.

clingo calls an @-function again for every rule instance that reaches it, with the same
arguments each time, so results are remembered per solve (per `Functions` object).
"""
from __future__ import annotations

from typing import Callable

import clingo

from ..symbolic.expr import Expr, ExprOverflow
from .terms import NotADim, expr_to_symbol, symbol_to_expr

FAILURES = (ExprOverflow, ZeroDivisionError, NotADim, RecursionError)


def dims(*args: clingo.Symbol) -> list[Expr]:
    return [symbol_to_expr(a) for a in args]


def handles(args) -> tuple:
    """Arguments as a dict key: their symbols' handles. clingo interns symbols (equal
    symbols have one handle), and an integer hashes and compares in C, where a Symbol's
    `__hash__` and `__eq__` each call into clingo from Python (a remembered call of a GPT-2
    block's 1,637 per solve hashed and compared its arguments ~4 times)."""
    return tuple([a._rep for a in args])


def arithmetic(f: Callable[..., Expr]):
    """Lift a function on Exprs to clingo terms, returning [] on failure."""

    def lifted(self, *args):
        key = (lifted, handles(args))
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if self.exhausted(args):
            return []
        try:
            out = expr_to_symbol(self._known_result(f(*self._known_all(dims(*args)))))
        except NotADim:
            # not a dim (a real): the rule does not apply. clingo may evaluate a head's
            # function before the rest of the body, so this is no arithmetic giving up.
            out = []
        except FAILURES as e:
            self.failures.append(f"{f.__name__}({', '.join(map(str, args))}): {e}")
            out = []
        self.memo[key] = out
        return self.note_made(args, out)

    lifted.__name__ = f.__name__
    return lifted


def remembered(f):
    """A pure test or computation on clingo terms, remembered per solve (clingo calls
    the same one again for every rule instance that reaches it). Goes after any
    `exhausted` check, which must see every call."""

    def g(self, *args):
        key = (g, handles(args))
        hit = self._pure.get(key)
        if hit is None:
            hit = self._pure[key] = f(self, *args)
        return hit

    g.__name__, g.__doc__ = f.__name__, f.__doc__
    return g


def integral_real(sym: clingo.Symbol) -> bool:
    """sym is real(R) of a float R that is an integer (floats.lp gives it as that integer
    too)."""
    if sym.type != clingo.SymbolType.Function or sym.name != "real":
        return False
    try:
        return float(sym.arguments[0].string).is_integer()
    except (ValueError, IndexError):
        return False
