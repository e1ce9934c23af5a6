"""Shapes of the shape language: a sequence of parts, each a list of dims or a shape variable.

`[b, s, 768]` is one dims part; `s@[a]` is a variable part followed by a dims part.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from .symbolic.expr import Expr
from .symbolic.parse import NAME_RE, Parser, ShapeSyntaxError

Part = Union[tuple, str]  # tuple[Expr, ...] of dims, or the name of a shape variable


@dataclass(frozen=True)
class Shape:
    parts: tuple

    @property
    def dims(self) -> tuple[Expr, ...] | None:
        """The dims when the rank is known (no shape variable), else None."""
        if any(isinstance(p, str) for p in self.parts):
            return None
        return tuple(d for p in self.parts for d in p)

    @property
    def rank(self) -> int | None:
        dims = self.dims
        return None if dims is None else len(dims)

    def symbols(self) -> set[str]:
        out: set[str] = set()
        for p in self.parts:
            if isinstance(p, str):
                continue
            for d in p:
                out |= d.symbols()
        return out

    def variables(self) -> set[str]:
        return {p for p in self.parts if isinstance(p, str)}

    def __str__(self) -> str:
        return format_shape(self.parts)

    @staticmethod
    def of(dims) -> "Shape":
        return Shape((tuple(d if isinstance(d, Expr) else Expr.const(d) for d in dims),))


def format_shape(parts) -> str:
    out = []
    for p in parts:
        out.append(p if isinstance(p, str) else "[" + ", ".join(str(d) for d in p) + "]")
    return "@".join(out) if out else "[]"


def parse_shape(text: str, fresh: Callable[[], Expr] | None = None) -> Shape:
    p = Parser(text, fresh)
    parts = [_part(p)]
    while p.peek("@", "op"):
        p.take()
        parts.append(_part(p))
    if not p.at_end():
        p.fail(f"unexpected {p.tokens[p.i][1]!r}")
    return Shape(tuple(parts))


def _part(p: Parser):
    kind, v, pos = p.tokens[p.i]
    if kind == "name":
        p.take()
        return v
    p.expect("[")
    dims = []
    if not p.peek("]", "op"):
        dims.append(p.dim())
        while p.peek(",", "op"):
            p.take()
            dims.append(p.dim())
    p.expect("]")
    return tuple(dims)


def shape_from_json(value, fresh: Callable[[], Expr] | None = None) -> Shape:
    """A shape given as a string of the language or as a JSON list of ints, names and '?'."""
    if isinstance(value, str):
        return parse_shape(value, fresh)
    if isinstance(value, list):
        dims = []
        for i, d in enumerate(value):
            if isinstance(d, bool) or not isinstance(d, (int, str)):
                raise ShapeSyntaxError(str(value), 0, f"dim {i} must be an int, a name or '?'")
            if isinstance(d, int):
                if d < 0:
                    raise ShapeSyntaxError(str(value), 0, f"dim {i} is negative ({d})")
                dims.append(Expr.const(d))
            elif d == "?":
                if fresh is None:
                    raise ShapeSyntaxError(str(value), 0, "'?' is not allowed here")
                dims.append(fresh())
            else:
                from .symbolic.parse import parse_dim

                dims.append(parse_dim(d, fresh))
        return Shape((tuple(dims),))
    raise ShapeSyntaxError(repr(value), 0, "a shape must be a string or a list")


def is_name(text: str) -> bool:
    return bool(NAME_RE.match(text))
