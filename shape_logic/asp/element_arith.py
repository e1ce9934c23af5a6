"""Element arithmetic of shape computations (Add, Div, Mod, Equal... on the elements of
small integer tensors), with ONNX's semantics, on canonical expressions.

`div` truncates toward zero (C), `mod` is floored (the sign of the divisor, ONNX Mod's
default), `fmod` truncated; `eq` is Equal's test, 1 or 0. None where the result is not
decided: a symbolic quotient whose operands may be negative (floored and truncated
division part there), or an equality of forms that may or may not be equal.
"""
from __future__ import annotations

from ..symbolic import ops
from ..symbolic.bounds import bounds
from ..symbolic.expr import Expr


def integer(name: str, x: Expr, y: Expr) -> Expr | None:
    """x `name` y (add | sub | mul | div | mod | fmod | max | min | eq); KeyError for
    another name."""
    if name in ("div", "mod", "fmod"):
        return division(name, x, y)
    if name == "eq":
        return equal_test(x, y)
    table = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
             "max": lambda: ops.maximum(x, y), "min": lambda: ops.minimum(x, y)}
    return table[name]()


def equal_test(x: Expr, y: Expr) -> Expr | None:
    """x == y as 1 / 0 where the canonical forms decide it: equal forms are equal, and
    forms whose difference is provably nonzero differ."""
    diff = x - y
    if diff.is_int:
        return Expr.const(1 if diff.value == 0 else 0)
    lo, hi = bounds(diff)  # symbols are >= 1: s == -1 is false
    if lo > 0 or hi < 0:
        return Expr.const(0)
    return None


def division(name: str, x: Expr, y: Expr) -> Expr | None:
    if x.is_int and y.is_int:
        p, q = x.value, y.value
        if q == 0:
            return None
        trunc = abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1)
        return Expr.const({"div": trunc, "fmod": p - trunc * q, "mod": p % q}[name])
    # symbolic: all three agree with floored arithmetic when x >= 0 and y >= 1
    if bounds(x)[0] < 0 or bounds(y)[0] < 1:
        return None
    return ops.floordiv(x, y) if name == "div" else ops.mod(x, y)
