"""Rules that bound a variable on both sides by integers far apart (docs/RULES.md, "Two
bounds of one variable"): clingo makes a range literal of such a pair, which a rule
outside a recursive component enumerates value by value whatever its other literals
(`E > -4194304, E < 4194304` grounded alone: ~250 ms). One of the bounds written as a
tuple, `(K, 0) >= (-32767, 0)`, means the same and makes none. Our own rules have none
(tests/core/test_rule_bounds.py); `shape-logic test-rule` notes them in a user's file."""
from __future__ import annotations

import clingo
import clingo.ast as ast

T = ast.ASTType
C = ast.ComparisonOperator
# ranges from WIDE values up cost measurably (~30 ns a value); from 2^24 on clingo makes
# none (measured with clingo 5.8: `V >= 0, V < 1073741824`, our usual bound of a size, costs
# what one bound does)
WIDE = 1024
NOT_DERIVED = 2 ** 24
UPPER = (C.LessThan, C.LessEqual)
LOWER = (C.GreaterThan, C.GreaterEqual)
MIRROR = {C.LessThan: C.GreaterThan, C.LessEqual: C.GreaterEqual,
          C.GreaterThan: C.LessThan, C.GreaterEqual: C.LessEqual}


def _integer(term) -> int | None:
    if term.ast_type == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Number:
        return term.symbol.number
    if term.ast_type == T.UnaryOperation and term.operator_type == ast.UnaryOperator.Minus:
        inner = _integer(term.argument)
        return None if inner is None else -inner
    return None


def _bounds(comparison):
    """(variable, operator, integer) for each side of a comparison (chains included) that
    sets a plain variable against an integer, the operator read as `variable op integer`."""
    terms = [comparison.term, *(g.term for g in comparison.guards)]
    for (left, right), guard in zip(zip(terms, terms[1:]), comparison.guards):
        op = guard.comparison
        if left.ast_type == T.Variable and _integer(right) is not None:
            yield left.name, op, _integer(right)
        elif right.ast_type == T.Variable and _integer(left) is not None and op in MIRROR:
            yield right.name, MIRROR[op], _integer(left)


def wide_intervals(rule) -> list[tuple[str, int, int]]:
    """(variable, lowest, highest) for each variable the plain comparisons of the rule's
    body bound on both sides by integers at least WIDE and less than NOT_DERIVED apart."""
    low: dict = {}
    high: dict = {}
    for literal in rule.body:
        if literal.ast_type != T.Literal or literal.sign != ast.Sign.NoSign:
            continue
        if literal.atom.ast_type != T.Comparison:
            continue
        for var, op, k in _bounds(literal.atom):
            if op in UPPER:
                high[var] = min(high.get(var, k), k)
            elif op in LOWER:
                low[var] = max(low.get(var, k), k)
    return sorted((v, low[v], high[v]) for v in low.keys() & high.keys()
                  if WIDE <= high[v] - low[v] < NOT_DERIVED)


def wide_bound_notes(text: str, path: str) -> list[str]:
    """One line per variable of a rule file's text that wide_intervals finds."""
    notes: list[str] = []

    def visit(statement):
        if statement.ast_type != T.Rule:
            return
        for var, low, high in wide_intervals(statement):
            notes.append(f"{path}:{statement.location.begin.line}: {var} is bounded on "
                         f"both sides ({low} .. {high}): clingo makes a range of it, "
                         f"enumerated outside a recursive component; write one bound as a "
                         f"tuple, ({var}, 0) >= ({low}, 0) (docs/RULES.md, \"Two bounds of "
                         f"one variable\")")

    ast.parse_string(text, visit, logger=lambda code, msg: None, message_limit=1)
    return notes
