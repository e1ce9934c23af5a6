"""Sizes printed in the spelling the graph's own equations give them (decode.py).

Where the graph requires a floor of a size to be a multiple of another, `(h + 7)//8 =
2*((h + 15)//16)` (YOLOv8's upsampled sizes joined to their skips'), the solve takes one
spelling for both from then on (asp/relating.py), and what it computes after prints in
that one: the anchors of the stride-8 level as `4*((h + 15)//16)*((w + 15)//16)`, which
is `((h + 7)//8)*((w + 7)//8)` wherever the graph runs. Printing takes each such equation
back: c times the coarser floor is the finer one, in every term that has it with a
coefficient c divides (`21*((h + 31)//32)*((w + 31)//32)`, the anchors of all three
levels, stays as it is).
"""
from __future__ import annotations

from .expr import ZERO, Expr

# rounds of taking equations back in one size (each lowers a coefficient)
MAX_ROUNDS = 8


def respelling_rules(equations: list) -> list[tuple]:
    """(B, c, A, s) for each equation A = c*B (pairs a = b) between two floor divisions A
    and B of one symbol s and an integer c >= 2: c*B is printed A."""
    rules = []
    for a, b in equations:
        for fine, coarse in ((a, b), (b, a)):
            atom = fine.single_atom()
            if atom is None or atom.kind != "floordiv" or len(coarse.terms) != 1:
                continue
            mono, c = coarse.terms[0]
            if c >= 2 and len(mono) == 1 and mono[0][1] == 1 and \
                    mono[0][0].kind == "floordiv" and \
                    len(fine.symbol_set() | coarse.symbol_set()) == 1:
                rules.append((mono[0][0], c, fine, next(iter(fine.symbol_set()))))
    return rules


def respelled(e: Expr, rules: list) -> Expr:
    """e with each term k*B*rest (B a rule's coarser floor, c dividing k) printed as
    (k/c)*A*rest, once per symbol and round (the 4 of 4*((h + 31)//32)*((w + 31)//32)
    goes to both: ((h + 15)//16)*((w + 15)//16)), as long as a rule applies (at most
    MAX_ROUNDS rounds)."""
    for _ in range(MAX_ROUNDS):
        out, changed = ZERO, False
        for mono, k in e.terms:
            powers, fines, used = dict(mono), [], set()
            for coarse, c, fine, sym in rules:
                if sym not in used and k % c == 0 and powers.get(coarse, 0) >= 1:
                    powers[coarse] -= 1
                    fines.append(fine)
                    k //= c
                    used.add(sym)
            term = Expr.const(k)
            for factor in fines + [Expr.atom(a) for a, p in powers.items() for _ in range(p)]:
                term = term * factor
            changed = changed or bool(fines)
            out = out + term
        if not changed:
            return e
        e = out
    return e
