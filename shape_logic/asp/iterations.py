"""A Loop body's names for what differs from one iteration to the next (rules/Loop.lp).

The body is solved once, for the iteration at hand. Two things in it change from one
iteration to the next: the size of a carried value that grows (@grown names it), and
the iteration number, body input 0 (@iteration: I - 1 for a name I >= 1, as names are;
a trip count M gives I <= M, a ceiling: asp/floors.py). Both are names of the body's own
scope, `_i<K>__grow...`, printed fresh (decode.py) like every body's own name. What holds
one of them holds in one iteration only: it must not leave the body as though every
iteration gave it (@fixed_in), nor count as a step that every iteration adds (@grow_step).
A graph's own name `_grow...` (no exporter makes one) would share scope K's copy of it.
"""
from __future__ import annotations

import clingo

from ..scopes import name_scope, rescope_expr, scoped_name, unscoped_name
from ..symbolic.expr import Expr
from .lifting import FAILURES, remembered
from .terms import expr_to_symbol, symbol_to_expr

String = clingo.String
GROWN = "_grow"  # the start of every such name (unscoped): `_grow<C>_<I>`, `_grow_it<K>`


def _iteration_name(k: int) -> str:
    # the loop's scope in the name too: a body in the body reads it through its own copy,
    # `_i<K2>__grow_it<K>`, which is then not the inner loop's `_i<K2>__grow_it<K2>`
    return scoped_name(f"{GROWN}_it{k}", k)


def per_iteration(name: str, k: int) -> bool:
    """Whether `name` is one of scope k's names for what differs between iterations."""
    return name_scope(name) == k and unscoped_name(name).startswith(GROWN)


class Iterations:
    """The @-functions of Loop.lp's names per iteration (mixed into asp.functions)."""

    @remembered
    def grown(self, k: clingo.Symbol, c: clingo.Symbol, i: clingo.Symbol):
        """@grown(K, C, I): the name Loop.lp gives axis I of carried value C's body input in
        scope K (its size in the iteration at hand: a body's own name, printed fresh)."""
        return String(scoped_name(f"{GROWN}{c.number}_{i.number}", k.number))

    @remembered
    def iteration(self, k: clingo.Symbol):
        """@iteration(K): the iteration number of loop scope K in the iteration at hand,
        I - 1 for the name I that @iteration_name gives."""
        return expr_to_symbol(Expr.sym(_iteration_name(k.number)) - 1)

    @remembered
    def iteration_name(self, k: clingo.Symbol):
        return String(_iteration_name(k.number))

    @remembered
    def fixed_in(self, e: clingo.Symbol, k: clingo.Symbol):
        """@fixed_in(E, K): 1 when E holds none of scope K's names per iteration (so it is
        the same in every iteration that gives it), else 0."""
        try:
            names = symbol_to_expr(e).symbol_set()
        except FAILURES:
            return clingo.Number(0)
        return clingo.Number(int(not any(per_iteration(s, k.number) for s in names)))

    def grow_step(self, e: clingo.Symbol, g: clingo.Symbol, k: clingo.Symbol,
                  parent: clingo.Symbol):
        """@grow_step(E, G, K, P): E - G in scope P's names when it is the same in every
        iteration: an integer, or in names of the graph, of scope P, or of scope K that copy
        names around it (none of its names per iteration); no term otherwise."""
        if self.exhausted((e, g)):
            return []
        try:
            x = symbol_to_expr(e) - symbol_to_expr(g)
        except FAILURES:
            return []
        outer = (None, parent.number) if parent.number else (None,)
        if any(name_scope(s) not in outer
               and (name_scope(s) != k.number or per_iteration(s, k.number))
               for s in x.symbol_set()):
            return []
        return expr_to_symbol(rescope_expr(x, k.number, parent.number))
