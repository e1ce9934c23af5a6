"""Equations that others imply, through the orders that `max(x, y) = y` states.

A graph that requires `max(s0, s1) = s1`, `max(s1, s2) = s2` and `max(s2, s3) = s3` (a
Scan state broadcast with a vector of its lower axes keeps its shape) requires
s0 <= s1 <= s2 <= s3, and with them `max(s0, max(s1, s2)) = s2`,
`max(s0, max(s1, max(s2, s3)))*max(s1, s2) = s2*s3` and dozens more that the solver met
as other spellings of the same values. `minimal` keeps the ones the others do not imply,
so that a reader sees the three.
"""
from __future__ import annotations

from . import ops
from .expr import Expr

MAX_EQUATIONS = 400  # (beyond it the list is returned as it is: each test is a rewrite)


def minimal(equations: list, simplicity) -> list:
    """The equations (pairs a = b) that the others do not imply, simplest first; an
    equation is left out when, with the orders stated by the simpler ones kept (an
    extremum equal to one of its arguments), its two sides are the same expression."""
    if len(equations) > MAX_EQUATIONS:
        return list(equations)
    orders = Orders()
    kept = []
    for a, b in sorted(equations, key=lambda ab: (simplicity(ab[0]) + simplicity(ab[1]),
                                                  str(ab[0]), str(ab[1]))):
        if orders.reduce(a) == orders.reduce(b):
            continue  # implied by those kept
        kept.append((a, b))
        orders.learn(a, b)
        orders.learn(b, a)
    return kept


class Orders:
    """x <= y facts, and expressions rewritten under them (an extremum's arguments that
    another one dominates left out)."""

    def __init__(self):
        self.above: dict[Expr, set] = {}  # x -> the ys stated x <= y
        self._reduced: dict[Expr, Expr] = {}

    def learn(self, a: Expr, b: Expr) -> None:
        """a = b: if a is a max with b among its arguments, every other one is <= b (a
        min: >= b)."""
        atom = a.single_atom()
        if atom is None or atom.kind not in ("max", "min") or b not in atom.args:
            return
        for x in atom.args:
            if x != b:
                low, high = (x, b) if atom.kind == "max" else (b, x)
                self.above.setdefault(low, set()).add(high)
        self._reduced.clear()

    def below(self, x: Expr, y: Expr) -> bool:
        """x <= y follows from the facts (by transitivity)."""
        seen, todo = {x}, [x]
        while todo:
            for z in self.above.get(todo.pop(), ()):
                if z == y:
                    return True
                if z not in seen:
                    seen.add(z)
                    todo.append(z)
        return False

    def reduce(self, e: Expr) -> Expr:
        """e with each max and min rid of the arguments the facts show another one
        dominates, inner ones first."""
        if not self.above or not e.symbol_set():
            return e
        hit = self._reduced.get(e)
        if hit is None:
            hit = self._reduced[e] = self._rebuilt(e)
        return hit

    def _rebuilt(self, e: Expr) -> Expr:
        total = Expr.const(0)
        for mono, c in e.terms:
            term = Expr.const(c)
            for atom, power in mono:
                if atom.kind == "sym":
                    f = Expr.atom(atom)
                else:
                    args = [self.reduce(x) for x in atom.args]
                    if atom.kind in ("max", "min"):
                        args = self._undominated(atom.kind, args)
                    f = ops.apply(atom.kind, args)
                for _ in range(power):
                    term = term * f
            total = total + term
        return total

    def _undominated(self, kind: str, args: list) -> list:
        """The arguments no other one dominates by the facts (of equal ones, the first)."""
        kept = []
        for i, x in enumerate(args):
            beaten = any(
                j != i and (self.below(x, y) if kind == "max" else self.below(y, x))
                and not (j > i and (self.below(y, x) if kind == "max" else self.below(x, y)))
                for j, y in enumerate(args))
            if not beaten:
                kept.append(x)
        return kept
