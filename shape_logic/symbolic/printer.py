"""Canonical printing of expressions in the shape language (INTERFACE §1).

The printer follows the term order of the normal form and parenthesizes just
enough for the parser to read the same expression back.  Presentation rules,
each a function of the normal form (so equal expressions still print
identically), and each keeping to INTERFACE's grammar, which has no unary
minus: outer terms whose monomial occurs in the numerator of a floored division
by an integer are folded back into it (`b*s + 9*b*s//16` prints as
`25*b*s//16`); the first positive term leads (`h - 2`); an expression without
one is a difference from 0 (`0 - h`); a modulo by a symbol whose numerator has
no positive term adds the divisor to it (`(h - 2)%h` for (-2) mod h).
"""
from __future__ import annotations


def format_expr(e) -> str:
    terms = _fold_into_divisions(list(e.terms))
    if not terms:
        return "0"
    # the language has no unary minus (INT >= 0): the first positive term leads (`h - 2`,
    # not `-2 + h`), and an expression without one is a difference from 0 (`0 - h`)
    first = next((i for i, t in enumerate(terms) if t[1] > 0), None)
    if first is None:
        out = ["0"]
    else:
        terms.insert(0, terms.pop(first))
        out = []
    for mono, c, folded in terms:
        negative = c < 0
        if folded is not None:
            body = folded if not negative else f"({folded})"
        else:
            body = _format_term(abs(c), mono)
        if not out:
            out.append(body)
        else:
            out.append((" - " if negative else " + ") + body)
    return "".join(out)


def _fold_into_divisions(terms):
    """Return (monomial, coefficient, folded text or None) with outer terms folded."""
    from .expr import Expr

    absorbed: set[int] = set()
    folded: dict[int, str] = {}
    for i, (mono, c) in enumerate(terms):
        if c != 1 or len(mono) != 1 or mono[0][1] != 1 or i in absorbed:
            continue
        atom = mono[0][0]
        if atom.kind != "floordiv" or not atom.args[1].is_int:
            continue
        num, den = atom.args
        num_monos = {m for m, _ in num.terms if m}
        extra = {}
        for j, (m2, c2) in enumerate(terms):
            # (a division that folded terms in keeps them: absorbed into another division,
            # s6 + s6//2 + (s6 + s6//2)//2 printed as (s6 + 3*(s6//2))//2, 5 at s6 = 4
            # where it is 9 - fuzz --kind ops --seed 3312, graph 3598)
            if j != i and j not in absorbed and j not in folded and m2 in num_monos:
                extra[m2] = c2 * den.value
                absorbed.add(j)
        if extra:
            merged = dict(num.terms)
            for m2, k in extra.items():
                merged[m2] = merged.get(m2, 0) + k
            if not any(k > 0 for k in merged.values()):
                # (h - 2*h)//2 would need a minus in front: h//2 - h stays as it is
                for m2 in extra:
                    absorbed.discard(next(j for j, (m3, _) in enumerate(terms) if m3 == m2))
                continue
            folded[i] = _division_text(Expr(merged), den, "//")
    return [(m, c, folded.get(i)) for i, (m, c) in enumerate(terms) if i not in absorbed]


def _format_term(c: int, mono) -> str:
    factors = [atom for atom, p in mono for _ in range(p)]
    if not factors:
        return str(c)
    alone = c == 1 and len(factors) == 1
    parts = [format_atom(a, alone) for a in factors]
    if c != 1:
        parts.insert(0, str(c))
    return "*".join(parts)


def format_atom(a, alone: bool = True) -> str:
    kind = a.kind
    if kind == "sym":
        return a.args[0]
    # (an atom's text is a function of the atom, which is immutable: printed once per
    # process. Atoms recur inside many expressions - a MaskFormer's 4,176 equations of
    # nested floors and maxes printed 94k atoms, 15k of them distinct, in ~1 s)
    text = _ATOM_TEXT.get(a)
    if text is None:
        text = _atom_text(a)
        if len(_ATOM_TEXT) >= _ATOM_TEXT_MOST:
            _ATOM_TEXT.clear()
        _ATOM_TEXT[a] = text
    return text if alone or kind not in ("floordiv", "mod") else f"({text})"


_ATOM_TEXT: dict = {}  # atom -> its text, standing alone
_ATOM_TEXT_MOST = 50_000


def _atom_text(a) -> str:
    kind = a.kind
    if kind == "ragged":
        return "*"
    if kind in ("max", "min"):
        return _nested_call(kind, [str(x) for x in a.args])
    num, den = a.args
    if kind == "mod" and den.single_atom() is not None and not any(c > 0 for _, c in num.terms):
        # a numerator without a positive term, (-2)%h, is written plus the divisor,
        # (h - 2)%h, which the normal form takes back to (-2)%h (ops.mod)
        num = num + den
    return _division_text(num, den, "//" if kind == "floordiv" else "%")


def _division_text(num, den, op: str) -> str:
    num_s = str(num)
    if len(num.terms) > 1 or not any(c > 0 for _, c in num.terms):  # a sum, or `0 - ..`
        num_s = f"({num_s})"
    den_s = str(den)
    single = den.single_atom()
    if not ((den.is_int and den.value >= 0)
            or (single is not None and single.kind in ("sym", "max", "min"))):
        den_s = f"({den_s})"
    return f"{num_s}{op}{den_s}"


def _nested_call(name: str, args: list[str]) -> str:
    # the language's max/min are binary: max(a, b, c) prints as max(a, max(b, c))
    text = args[-1]
    for arg in reversed(args[:-1]):
        text = f"{name}({arg}, {text})"
    return text
