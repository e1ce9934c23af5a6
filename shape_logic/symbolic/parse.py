"""Parser of the shape language (INTERFACE §1): dims, shapes, appends.

    shape := part ('@' part)*
    part  := '[' [dim (',' dim)*] ']' | NAME
    dim   := sum;  sum := prod (('+'|'-') prod)*;  prod := unary (('*'|'//'|'%') unary)*
    unary := '-' unary | INT | NAME | '?' | '*' | '(' sum ')' | FUNC '(' sum ',' sum ')'

`//` is floored division; `*`, `//` and `%` associate to the left, as in Python.
"""
from __future__ import annotations

import re
from typing import Callable

from . import ops
from .expr import Atom, Expr

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(//|[-+*%(),\[\]@?:]))")
FUNCTIONS = {"max": ops.maximum, "min": ops.minimum, "ceildiv": ops.ceildiv}


class ShapeSyntaxError(ValueError):
    def __init__(self, text: str, pos: int, reason: str):
        super().__init__(f"{reason} at column {pos + 1} of {text!r}")
        self.text, self.pos, self.reason = text, pos, reason


def tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ShapeSyntaxError(text, pos + len(text[pos:]) - len(text[pos:].lstrip()),
                                   f"unexpected character {text[pos:].lstrip()[0]!r}")
        kind = "int" if m.group(1) else "name" if m.group(2) else "op"
        start = m.start(m.lastindex)
        tokens.append((kind, m.group(m.lastindex), start))
        pos = m.end()
    tokens.append(("end", "", len(text)))
    return tokens


class Parser:
    def __init__(self, text: str, fresh: Callable[[], Expr] | None = None):
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.fresh = fresh

    # ----- token helpers
    def peek(self, value: str | None = None, kind: str | None = None) -> bool:
        k, v, _ = self.tokens[self.i]
        return (value is None or v == value) and (kind is None or k == kind) and k != "end" \
            if value is not None or kind is not None else k != "end"

    def take(self):
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, value: str):
        kind, v, pos = self.take()
        if v != value or kind == "end":
            found = "end of input" if kind == "end" else repr(v)
            raise ShapeSyntaxError(self.text, pos, f"expected {value!r}, found {found}")

    def fail(self, reason: str):
        raise ShapeSyntaxError(self.text, self.tokens[self.i][2], reason)

    def at_end(self) -> bool:
        return self.tokens[self.i][0] == "end"

    # ----- grammar
    def dim(self) -> Expr:
        e = self.term()
        while self.peek("+", "op") or self.peek("-", "op"):
            op = self.take()[1]
            rhs = self.term()
            e = e + rhs if op == "+" else e - rhs
        return e

    def term(self) -> Expr:
        e = self.unary()
        while self.peek("*", "op") or self.peek("//", "op") or self.peek("%", "op"):
            op = self.take()[1]
            rhs = self.unary()
            try:
                e = (e * rhs if op == "*" else ops.floordiv(e, rhs) if op == "//"
                     else ops.mod(e, rhs))
            except ZeroDivisionError:
                self.i -= 1
                self.fail("division by zero")
        return e

    def unary(self) -> Expr:
        kind, v, pos = self.take()
        if kind == "op" and v == "-":
            return -self.unary()
        if kind == "int":
            return Expr.const(int(v))
        if kind == "name":
            if v in FUNCTIONS and self.peek("(", "op"):
                self.take()
                a = self.dim()
                self.expect(",")
                b = self.dim()
                self.expect(")")
                try:
                    return FUNCTIONS[v](a, b)
                except ZeroDivisionError:
                    raise ShapeSyntaxError(self.text, pos, "division by zero")
            return Expr.sym(v)
        if kind == "op" and v == "?":
            if self.fresh is None:
                raise ShapeSyntaxError(self.text, pos, "'?' is not allowed here")
            return self.fresh()
        if kind == "op" and v == "*":
            return Expr.atom(Atom("ragged", ()))
        if kind == "op" and v == "(":
            e = self.dim()
            self.expect(")")
            return e
        found = "end of input" if kind == "end" else repr(v)
        raise ShapeSyntaxError(self.text, pos, f"expected a dimension, found {found}")


def parse_dim(text: str, fresh: Callable[[], Expr] | None = None) -> Expr:
    p = Parser(text, fresh)
    e = p.dim()
    if not p.at_end():
        p.fail(f"unexpected {p.tokens[p.i][1]!r}")
    return e


class FormulaParser(Parser):
    """Parses a formula into a function of its letters, evaluated only once the values are
    known: the letters are placeholders, not symbols >= 1, so nothing may be simplified
    before substitution (`max(a, 0)` with a = -5 is 0)."""

    def dim(self):
        e = self.term()
        while self.peek("+", "op") or self.peek("-", "op"):
            op = self.take()[1]
            rhs = self.term()
            e = (lambda x, y: lambda env: x(env) + y(env))(e, rhs) if op == "+" else \
                (lambda x, y: lambda env: x(env) - y(env))(e, rhs)
        return e

    def term(self):
        e = self.unary()
        while self.peek("*", "op") or self.peek("//", "op") or self.peek("%", "op"):
            op = self.take()[1]
            rhs = self.unary()
            f = {"*": lambda a, b: a * b, "//": ops.floordiv, "%": ops.mod}[op]
            e = (lambda f, x, y: lambda env: f(x(env), y(env)))(f, e, rhs)
        return e

    def unary(self):
        kind, v, pos = self.take()
        if kind == "op" and v == "-":
            inner = self.unary()
            return lambda env: -inner(env)
        if kind == "int":
            c = Expr.const(int(v))
            return lambda env: c
        if kind == "name":
            if v in FUNCTIONS and self.peek("(", "op"):
                self.take()
                a = self.dim()
                self.expect(",")
                b = self.dim()
                self.expect(")")
                f = FUNCTIONS[v]
                return lambda env: f(a(env), b(env))
            return lambda env: env[v]
        if kind == "op" and v == "(":
            e = self.dim()
            self.expect(")")
            return e
        found = "end of input" if kind == "end" else repr(v)
        raise ShapeSyntaxError(self.text, pos, f"expected a dimension, found {found}")


def compile_formula(text: str):
    """A formula of the shape language as a function {letter: Expr} -> Expr."""
    p = FormulaParser(text)
    f = p.dim()
    if not p.at_end():
        p.fail(f"unexpected {p.tokens[p.i][1]!r}")
    return f
