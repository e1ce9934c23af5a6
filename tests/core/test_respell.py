"""Sizes printed in the spelling the graph's equations give them (symbolic/respell.py)."""
import pytest

from shape_logic.symbolic.expr import Expr
from shape_logic.symbolic.parse import parse_dim
from shape_logic.symbolic.respell import respelled, respelling_rules

# YOLOv8's neck: each upsampled size joined to its skip's
NECK = [(parse_dim(a), parse_dim(b)) for a, b in [
    ("2*((h + 15)//16)", "(h + 7)//8"), ("(h + 15)//16", "2*((h + 31)//32)"),
    ("2*((w + 15)//16)", "(w + 7)//8"), ("2*((w + 31)//32)", "(w + 15)//16")]]


def _holds(h: int) -> bool:
    return 2 * ((h + 15) // 16) == (h + 7) // 8 and (h + 15) // 16 == 2 * ((h + 31) // 32)


@pytest.mark.parametrize("text, printed", [
    ("16*((h + 31)//32)*((w + 31)//32)", "((h + 7)//8)*((w + 7)//8)"),
    ("4*((h + 31)//32)*((w + 31)//32)", "((h + 15)//16)*((w + 15)//16)"),
    ("2*((h + 15)//16)", "(h + 7)//8"),
    ("21*((h + 31)//32)*((w + 31)//32)", "21*((h + 31)//32)*((w + 31)//32)"),
    ("6*((h + 31)//32) + 1", "3*((h + 15)//16) + 1"),
    ("h + 2", "h + 2"),
])
def test_a_multiple_of_a_coarser_floor_prints_as_the_finer(text, printed):
    rules = respelling_rules(NECK)
    assert len(rules) == 4
    e = parse_dim(text)
    out = respelled(e, rules)
    assert str(out) == printed
    for h in range(1, 200):  # the same size wherever the equations hold
        if _holds(h) and _holds(h + 3):
            at = {"h": parse_dim(str(h)), "w": parse_dim(str(h + 3))}
            assert out.subs(at) == e.subs(at), h


def test_only_a_floor_against_a_multiple_of_a_floor_of_one_symbol_is_a_rule():
    pairs = [(parse_dim(a), parse_dim(b)) for a, b in [
        ("2*(h//2)", "h"), ("2*(h//4)", "w//2"), ("h//2", "(h + 1)//2 + 1"),
        ("h//2", "2*(h//4)")]]
    assert [(str(Expr.atom(c)), k, str(f), s) for c, k, f, s in respelling_rules(pairs)] == [
        ("h//4", 2, "h//2", "h")]
