"""Element arithmetic of shape computations (Add, Div, Mod, Equal... on the elements of
small integer tensors), with ONNX's semantics, on canonical expressions.

`div` truncates toward zero (C), `mod` is floored (the sign of the divisor, ONNX Mod's
default), `fmod` truncated; `eq` is Equal's test, 1 or 0, and `lt` `le` `gt` `ge` are
Less's, LessOrEqual's, Greater's and GreaterOrEqual's. None where the result is not
decided: a symbolic quotient or remainder whose divisor may be below 1, or a comparison
of forms whose bounds do not decide it. A quotient whose dividend may be negative
truncates through max(x, 0)//y - max(-x, 0)//y (`truncated_quotient`).
"""
from __future__ import annotations

from ..symbolic import ops
from ..symbolic.bounds import bounds
from ..symbolic.expr import Expr


def integer(name: str, x: Expr, y: Expr, nonneg: bool = False,
            bounds_of=bounds) -> Expr | None:
    """x `name` y (add | sub | mul | div | mod | fmod | max | min | eq | lt | le | gt | ge |
    and | or: of bools, 1 and 0); KeyError for another name. `nonneg`: x is known to be
    >= 0 wherever the graph runs (a dim of it), whatever its bounds say. `bounds_of`: the
    bounds the tests and the signs take (with the solve's floors: asp/floors.py)."""
    if name in ("div", "mod", "fmod"):
        return division(name, x, y, nonneg, bounds_of)
    if name == "eq":
        return equal_test(x, y, bounds_of)
    if name in ORDER_TESTS:
        return order_test(name, x, y, bounds_of)
    if name in ("and", "or"):  # (bools: known 1s and 0s only)
        if not (x.is_int and y.is_int):
            return None
        both = (bool(x.value) and bool(y.value)) if name == "and" else (
            bool(x.value) or bool(y.value))
        return Expr.const(int(both))
    table = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
             "max": lambda: ops.maximum(x, y), "min": lambda: ops.minimum(x, y)}
    return table[name]()


def equal_test(x: Expr, y: Expr, bounds_of=bounds) -> Expr | None:
    """x == y as 1 / 0 where the canonical forms decide it: equal forms are equal, and
    forms whose difference is provably nonzero differ."""
    diff = x - y
    if diff.is_int:
        return Expr.const(1 if diff.value == 0 else 0)
    lo, hi = bounds_of(diff)  # symbols are >= 1: s == -1 is false
    if lo > 0 or hi < 0:
        return Expr.const(0)
    return None


# x `name` y is y - x >= least (1 true) and its negation y - x <= least - 1; gt and ge
# swap the operands
ORDER_TESTS = {"lt": (False, 1), "le": (False, 0), "gt": (True, 1), "ge": (True, 0)}


TESTS = frozenset(ORDER_TESTS) | {"eq"}


def is_test(f) -> bool:
    """@arith's operation `f` (a clingo term: eq, or int(eq, i32)) is a comparison: its
    result is 1 or 0."""
    return f.name in TESTS or (f.name == "int" and f.arguments[0].name in TESTS)


def order_test(name: str, x: Expr, y: Expr, bounds_of=bounds) -> Expr | None:
    """x < y (lt), x <= y (le), x > y (gt), x >= y (ge) as 1 / 0 where the bounds of the
    difference decide it (symbols are >= 1: s < 1 is false, s >= 1 true)."""
    swap, least = ORDER_TESTS[name]
    lo, hi = bounds_of(x - y if swap else y - x)
    if lo >= least:
        return Expr.const(1)
    if hi <= least - 1:
        return Expr.const(0)
    return None


def division(name: str, x: Expr, y: Expr, nonneg: bool = False,
             bounds_of=bounds) -> Expr | None:
    if x.is_int and y.is_int:
        p, q = x.value, y.value
        if q == 0:
            return None
        trunc = abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1)
        return Expr.const({"div": trunc, "fmod": p - trunc * q, "mod": p % q}[name])
    # symbolic: the floored remainder is the shape language's % whenever y >= 1 (torch's
    # roll takes (-2) mod h); all three agree with floored arithmetic when x >= 0 too
    if bounds_of(y)[0] < 1:
        return None
    if name == "mod":
        return ops.mod(x, y)
    if bounds_of(x)[0] >= 0 or nonneg:
        return ops.floordiv(x, y) if name == "div" else ops.mod(x, y)
    trunc = truncated_quotient(x, y, bounds_of)
    return trunc if name == "div" else x - y * trunc


def truncated_quotient(x: Expr, y: Expr, bounds_of=bounds) -> Expr:
    """x / y rounded toward zero, for y >= 1 and an x that may be negative: the floored
    quotient of its positive part less that of its negative part, max(x, 0)//y -
    max(-x, 0)//y (one of the two is 0: for x >= 0 it is x//y, for x < 0 -((-x)//y)).
    A dividend never above 0 is -((-x)//y). BiT's 'same' padding pads 37 - w, split as
    (37 - w) / 2 before and the rest after: each side is this form, their sum 37 - w, and
    the padded width 37 at every w (the pads crop past 37)."""
    if bounds_of(x)[1] <= 0:
        return -ops.floordiv(-x, y)
    zero = Expr.const(0)
    return ops.floordiv(ops.maximum(x, zero), y) - ops.floordiv(ops.maximum(-x, zero), y)
