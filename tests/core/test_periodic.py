"""Identities and multiples of one symbol (symbolic/periodic.py): what it claims holds at
every value tried (random expressions of the shape language in h, against their values at
h = 1..300), and the equations tf2onnx's crops leave are classified as they hold."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.symbolic import Expr, ops, parse_dim, relate
from shape_logic.symbolic.divisibility import divisibility
from shape_logic.symbolic.periodic import identically_zero, zero_where_multiple
from shape_logic.symbolic.values import Undefined, function_of
from tests.core.test_symbolic import exprs

VALUES = range(1, 301)


def _in_h(e: Expr) -> Expr:
    return e.subs({"a": Expr.sym("h"), "b": Expr.sym("h")})


def _zeros(d: Expr):
    """The values of h in VALUES where d is 0, or None where d has no value somewhere."""
    f = function_of(d, "h")
    try:
        return [v for v in VALUES if f(v) == 0]
    except (Undefined, ArithmeticError):
        return None


@st.composite
def equations(draw):
    """d = an equation's two sides' difference in h: random, or made to vanish on a class
    (k*(e//k) - e: where k divides e) or everywhere (e//(j*k) - (e//j)//k, e - e)."""
    e = _in_h(draw(exprs(depth=3))[0])
    j, k = draw(st.integers(1, 4)), draw(st.integers(2, 6))
    kind = draw(st.sampled_from(["random", "multiple", "nested", "same"]))
    if kind == "random":
        return e - _in_h(draw(exprs(depth=3))[0])
    if kind == "multiple":
        return ops.floordiv(e, Expr.const(k)) * k - e
    if kind == "nested":
        return ops.floordiv(e, Expr.const(j * k)) - ops.floordiv(
            ops.floordiv(e, Expr.const(j)), Expr.const(k))
    return e - e


@settings(max_examples=600, deadline=None)
@given(equations())
def test_what_is_claimed_holds_at_every_value_tried(d):
    if d.symbol_set() != {"h"}:
        return
    zeros = _zeros(d)
    k = zero_where_multiple(d, "h", 1)
    if k is not None:
        assert zeros == [v for v in VALUES if v % k == 0], (str(d), k)
    if identically_zero(d, "h", 1):
        assert zeros == list(VALUES), str(d)


@pytest.mark.parametrize("a, b, multiple", [
    # tf2onnx's Keras U-Net crops a transposed convolution's 2*((h + 1)//2) to h
    ("min(2*((h + 1)//2) + 1, 2*((h + 1)//2) + max(0, 2*((min(2*((h + 1)//2) + 1, "
     "4*((h + 3)//4)) + 1)//2) - 4*((h + 3)//4) + 1)//2)", "h", 2),
    ("2*((h + 1)//2)", "h", 2),
    ("4*(h//4)", "h", 4),
    ("2*(h//2) + h%2", "h", 1),
    ("((h + 1)//2 + 1)//2", "(h + 3)//4", 1),
    ("max(h, 1)", "h", 1),
    ("(h + 1)//2", "2*((h + 3)//4)", None),  # h in 3, 4, 7, 8, ..: no multiples' class
    ("(h//2 + 1)//2", "h//4", None),  # h in 1, 4, 5, 8, ..
    ("min(h, 5)", "h", None),  # h <= 5: finitely many (equation.py's enumeration)
    ("h*h", "4*h", None),  # not linear on the classes
])
def test_classified(a, b, multiple):
    d = parse_dim(a) - parse_dim(b)
    assert zero_where_multiple(d, "h", 1) == multiple
    assert identically_zero(d, "h", 1) == (multiple == 1)


def test_two_spellings_of_one_size_relate_as_the_same():
    # (they were left unsolved: each fed the arithmetic after it, and tf2onnx's U-Net with
    # its sizes computed in int32 made 16,000 pairs of spellings in 28 s)
    assert relate(parse_dim("((h + 1)//2 + 1)//2"), parse_dim("(h + 3)//4")).kind == "same"
    assert relate(parse_dim("2*((h + 1)//2)"), parse_dim("h")).kind == "unsolved"


def test_multiples_are_printed_as_such():
    assert [tuple(map(str, p)) for p in divisibility(parse_dim("2*((h + 1)//2)"),
                                                      parse_dim("h"))] == [("h%2", "0")]
    assert divisibility(parse_dim("(h + 1)//2"), parse_dim("2*((h + 3)//4)")) is None


def test_equations_of_one_symbol_joined_into_one_multiple():
    from shape_logic.symbolic.divisibility import joined_multiples

    crops = [(parse_dim("2*((h + 3)//4)"), parse_dim("(h + 1)//2")),  # h in 3, 4, 7, 8, ..
             (parse_dim("h%2"), parse_dim("0")), (parse_dim("w%3"), parse_dim("0"))]
    assert sorted(f"{a} = {b}" for a, b in joined_multiples(crops)) == ["h%4 = 0", "w%3 = 0"]
    # (YOLOv8's strides: h in 25..32, 57..64, ..: no multiples' class, kept as they are)
    bands = [(parse_dim("2*((h + 15)//16)"), parse_dim("(h + 7)//8")),
             (parse_dim("2*((h + 31)//32)"), parse_dim("(h + 15)//16"))]
    assert joined_multiples(bands) == bands
