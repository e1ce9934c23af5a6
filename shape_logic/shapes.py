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
    # OCANNL's axis labels (`[batch:b, rgb:3]`): per part, a tuple with a label or None per
    # dim (None for a variable part); () when no axis is labeled
    labels: tuple = ()

    def __post_init__(self):
        # read for every tensor by decoding, rendering and checking: computed once
        dims = None if any(isinstance(p, str) for p in self.parts) else \
            tuple(d for p in self.parts for d in p)
        object.__setattr__(self, "_dims", dims)

    @property
    def dims(self) -> tuple[Expr, ...] | None:
        """The dims when the rank is known (no shape variable), else None."""
        return self._dims

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
        return format_shape(self.parts, self.labels)

    def part_labels(self, k: int) -> tuple:
        """The labels of part k's dims (None where unlabeled)."""
        if not self.labels or self.labels[k] is None:
            return (None,) * (0 if isinstance(self.parts[k], str) else len(self.parts[k]))
        return self.labels[k]

    @staticmethod
    def of(dims) -> "Shape":
        return Shape((tuple(d if isinstance(d, Expr) else Expr.const(d) for d in dims),))


def format_shape(parts, labels=()) -> str:
    out = []
    for k, p in enumerate(parts):
        if isinstance(p, str):
            out.append(p)
            continue
        names = labels[k] if labels and labels[k] else (None,) * len(p)
        out.append("[" + ", ".join(f"{n}:{d}" if n else str(d) for n, d in zip(names, p)) + "]")
    return "@".join(out) if out else "[]"


def parse_shape(text: str, fresh: Callable[[], Expr] | None = None) -> Shape:
    p = Parser(text, fresh)
    parts = [_part(p)]
    while p.peek("@", "op"):
        p.take()
        parts.append(_part(p))
    if not p.at_end():
        p.fail(f"unexpected {p.tokens[p.i][1]!r}")
    labels = tuple(lab for _, lab in parts)
    return Shape(tuple(part for part, _ in parts),
                 labels if any(lab and any(lab) for lab in labels) else ())


def _part(p: Parser):
    kind, v, pos = p.tokens[p.i]
    if kind == "name":
        p.take()
        return v, None
    p.expect("[")
    dims, labels = [], []
    if not p.peek("]", "op"):
        labels.append(_label(p))
        dims.append(p.dim())
        while p.peek(",", "op"):
            p.take()
            labels.append(_label(p))
            dims.append(p.dim())
    p.expect("]")
    return tuple(dims), tuple(labels)


def _label(p: Parser) -> str | None:
    """An axis label `name:` before a dim (OCANNL's dim labels), or None."""
    kind, v, _ = p.tokens[p.i]
    if kind == "name" and p.tokens[p.i + 1][1] == ":":
        p.i += 2
        return v
    return None


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


def bare_name(e: Expr) -> str | None:
    """The name a dim is, when it is one name alone (`s`, `_c1`; not `2*s` nor `s + 1`)."""
    atom = e.single_atom()
    return atom.args[0] if atom is not None and atom.kind == "sym" else None


def has_fresh_name(e: Expr) -> bool:
    """Whether a dim holds a fresh name (`_1`, ...): the solver's or a declaration's `?`,
    a size nothing determines, never a name a user gave."""
    return any(s.startswith("_") for s in e.symbols())
