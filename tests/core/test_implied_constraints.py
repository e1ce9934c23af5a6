"""Constraints stated once each without those the simpler ones imply linearly
(symbolic/implied.py): what is left out is a linear combination of what is kept, so it
holds wherever they do."""
from shape_logic.decode import simplicity
from shape_logic.symbolic.implied import independent
from shape_logic.symbolic.parse import parse_dim


def kept(*equations):
    pairs = [tuple(parse_dim(side) for side in eq.split("=")) for eq in equations]
    out = independent(pairs, order=lambda ab: (simplicity(ab[0]), simplicity(ab[1])))
    return {f"{a} = {b}" for a, b in out}


def test_a_sum_of_two_equations_is_left_out():
    # h8 = 2*h16 and h16 = 2*h32 give h8 = 4*h32 (YOLOv8's three feature maps)
    got = kept("(h + 7)//8 = 2*((h + 15)//16)", "(h + 15)//16 = 2*((h + 31)//32)",
               "(h + 7)//8 = 4*((h + 31)//32)")
    assert len(got) == 2  # (whichever two are simplest: any two give the third)


def test_sums_of_products_in_many_ways_reduce_to_a_basis():
    base = ["a*b = c*d", "e*f = 2*c*d"]
    combos = ["a*b + e*f = 3*c*d", "2*a*b = 2*c*d", "e*f - a*b = c*d", "e*f = 2*a*b"]
    assert len(kept(*base, *combos)) == 2


def test_what_is_not_linearly_implied_is_kept():
    # x//2 = y and (x//2)*(x//2) = y*y: the product follows only multiplicatively
    assert len(kept("x//2 = y", "(x//2)*(x//2) = y*y")) == 2
    # constants count as a term of their own: a = 1 and b = 1 do not give a = 2
    assert len(kept("a = 1", "b = 1", "a + b = 2", "a = 2")) == 3


def test_each_kept_one_adds_what_the_simpler_ones_lack():
    assert len(kept("a = b", "a = b")) == 1
    assert len(kept("a = b", "b = c", "c = d", "a = d")) == 3
