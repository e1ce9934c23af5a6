"""Canonical printing of expressions in the shape language (INTERFACE §1).

The printer follows the term order of the normal form and parenthesizes just
enough for the parser to read the same expression back.  One presentation
rule: outer terms whose monomial occurs in the numerator of a floored division
by an integer are folded back into it (`b*s + 9*b*s//16` prints as
`25*b*s//16`); the result is still a function of the normal form.
"""
from __future__ import annotations


def format_expr(e) -> str:
    terms = _fold_into_divisions(list(e.terms))
    if not terms:
        return "0"
    out = []
    for i, (mono, c, folded) in enumerate(terms):
        negative = c < 0
        if folded is not None:
            body = folded if not negative else f"({folded})"
        else:
            body = _format_term(abs(c), mono, leading_minus=(i == 0 and negative))
        if i == 0:
            out.append(("-" if negative else "") + body)
        else:
            out.append((" - " if negative else " + ") + body)
    return "".join(out)


def _fold_into_divisions(terms):
    """Return (monomial, coefficient, folded text or None) with outer terms folded."""
    from .expr import Expr

    absorbed: set[int] = set()
    folded: dict[int, str] = {}
    for i, (mono, c) in enumerate(terms):
        if c != 1 or len(mono) != 1 or mono[0][1] != 1:
            continue
        atom = mono[0][0]
        if atom.kind != "floordiv" or not atom.args[1].is_int:
            continue
        num, den = atom.args
        num_monos = {m for m, _ in num.terms if m}
        extra = {}
        for j, (m2, c2) in enumerate(terms):
            if j != i and j not in absorbed and m2 in num_monos:
                extra[m2] = c2 * den.value
                absorbed.add(j)
        if extra:
            merged = dict(num.terms)
            for m2, k in extra.items():
                merged[m2] = merged.get(m2, 0) + k
            folded[i] = _division_text(Expr(merged), den, "//")
    return [(m, c, folded.get(i)) for i, (m, c) in enumerate(terms) if i not in absorbed]


def _format_term(c: int, mono, leading_minus: bool) -> str:
    factors = [atom for atom, p in mono for _ in range(p)]
    if not factors:
        return str(c)
    alone = c == 1 and len(factors) == 1 and not leading_minus
    parts = [format_atom(a, alone) for a in factors]
    if c != 1:
        parts.insert(0, str(c))
    return "*".join(parts)


def format_atom(a, alone: bool = True) -> str:
    kind = a.kind
    if kind == "sym":
        return a.args[0]
    if kind == "ragged":
        return "*"
    if kind in ("max", "min"):
        return _nested_call(kind, [format_expr(x) for x in a.args])
    text = _division_text(a.args[0], a.args[1], "//" if kind == "floordiv" else "%")
    return text if alone else f"({text})"


def _division_text(num, den, op: str) -> str:
    num_s = format_expr(num)
    if len(num.terms) > 1:
        num_s = f"({num_s})"
    den_s = format_expr(den)
    single = den.single_atom()
    if not (den.is_int or (single is not None and single.kind in ("sym", "max", "min"))):
        den_s = f"({den_s})"
    return f"{num_s}{op}{den_s}"


def _nested_call(name: str, args: list[str]) -> str:
    # the language's max/min are binary: max(a, b, c) prints as max(a, max(b, c))
    text = args[-1]
    for arg in reversed(args[:-1]):
        text = f"{name}({arg}, {text})"
    return text
