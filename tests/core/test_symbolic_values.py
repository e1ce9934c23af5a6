"""An expression of one symbol as a function of its value (symbolic/values.py): the same
integers as substituting the value, on random expressions of the shape language."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.symbolic import Expr, ops, parse_dim, relate
from shape_logic.symbolic.values import Undefined, function_of, value_at
from tests.core.test_symbolic import exprs


@settings(max_examples=400, deadline=None)
@given(exprs(depth=4, symbolic_divisors=True), st.integers(-3, 60))
def test_the_function_gives_what_substitution_gives(pair, v):
    e, _ = pair
    one = e.subs({"a": Expr.sym("h"), "b": Expr.sym("h")})  # (one symbol: h)
    if not one.symbol_set():
        return
    got = value_at(one, "h", v)
    if got is None:  # a divisor of 0 there: substitution refuses it too
        with pytest.raises(ZeroDivisionError):
            one.subs({"h": Expr.const(v)})
        with pytest.raises(Undefined):
            function_of(one, "h")(v)
    else:
        want = one.subs({"h": Expr.const(v)})
        assert want.is_int and want.value == got


def test_nested_floors_of_a_skip_connection():
    # (a U-Net's skip connection, explaining: ten floors deep)
    e = parse_dim("h")
    for _ in range(10):
        e = ops.floordiv(e + 1, 2)
    f = function_of(e, "h")
    assert [f(v) for v in (1, 2, 1000, 1025)] == [1, 1, 1, 2]
    assert value_at(ops.floordiv(Expr.sym("h"), Expr.sym("h") - 3), "h", 3) is None
    with pytest.raises(ValueError):
        function_of(Expr.sym("h") + Expr.sym("w"), "h")


def test_an_equation_solved_by_enumeration_finds_its_one_root():
    # 2*((h//2 + 1)//2) = h holds at h = 2 only
    left = 2 * ops.floordiv(ops.floordiv(Expr.sym("h"), 2) + 1, 2)
    r = relate(left, Expr.sym("h"))
    assert (r.kind, r.symbol, r.value) == ("bind", "h", Expr.const(2))


def test_no_value_is_the_error_the_floors_callers_catch():
    # (a divisor of 0 was a ZeroDivisionError, an opaque size a ValueError: @least and
    # decode catch those)
    at = function_of(ops.floordiv(Expr.sym("h"), Expr.sym("h") - 3), "h")
    with pytest.raises(ZeroDivisionError):
        at(3)
    with pytest.raises(ValueError):
        at(3)
