"""Equations printed as the divisibility they amount to (symbolic/equation.divisibility) and
the constraints such a condition implies left out (without_implied_by_divisors): each
checked against every value of its symbols up to a bound."""
import itertools

import pytest

from shape_logic.symbolic.divisibility import divisibility, without_implied_by_divisors
from shape_logic.symbolic.expr import Expr
from shape_logic.symbolic.parse import parse_dim

from .test_unsolved_equations import pooled_and_upsampled


def _holds(a: Expr, b: Expr, values: dict) -> bool:
    env = {s: Expr.const(v) for s, v in values.items()}
    return a.subs(env).value == b.subs(env).value


def _assignments(symbols, top=40):
    symbols = sorted(symbols)
    for vs in itertools.product(range(1, top + 1), repeat=len(symbols)):
        yield dict(zip(symbols, vs))


@pytest.mark.parametrize("a, b, want", [
    ("16*(h//4)*(w//4)", "h*w", ["h%4 = 0", "w%4 = 0"]),  # torch.export's Swin2SR windows
    ("h", "2*(h//2)", ["h%2 = 0"]),                        # a pool and its upsampling
    ("6*(h//2)*(w//3)", "h*w", ["h%2 = 0", "w%3 = 0"]),
    ("4*(h//2)*(h//2)", "h*h", ["h%2 = 0"]),               # a power: one condition
    ("3*(b*s//3)", "b*s", ["b*s%3 = 0"]),                  # a numerator of several symbols
    # factor by factor, each x >= 1 and at least its y (HF Hiera's patches against its
    # resized position table): equal exactly where each pair is
    ("((h + 1)//2)*((w + 1)//2)", "(h//2)*(w//2)", ["h%2 = 0", "w%2 = 0"]),
    ("((h + 2)//3)*w", "(h//3)*w", ["h%3 = 0"]),
])
def test_a_product_of_floor_divisions_against_its_numerators(a, b, want):
    ea, eb = parse_dim(a), parse_dim(b)
    conditions = divisibility(ea, eb)
    assert [f"{m} = {z}" for m, z in conditions] == want
    symbols = (ea - eb).symbols()
    for values in _assignments(symbols, 40 if len(symbols) < 2 else 24):
        assert _holds(ea, eb, values) == all(_holds(m, z, values) for m, z in conditions)


@pytest.mark.parametrize("a, b", [
    ("2*((h - 5)//2)", "h - 5"),   # a numerator that may be 0 or below: its quotient 0
    ("2*(h//2)", "h + 1"),         # not the numerators' product
    ("8*(h//4)*(w//4)", "h*w"),    # not over the divisors' product
    ("2*(h//2) + 1", "h"),         # two terms
    ("h//2", "w"),
])
def test_other_forms_are_no_divisibility(a, b):
    assert divisibility(parse_dim(a), parse_dim(b)) is None


def _pairs(texts):
    return [tuple(parse_dim(t) for t in text.split(" = ")) for text in texts]


def test_what_a_multiple_of_four_implies_is_left_out():
    """A UNet pooled twice and upsampled back: six equations, two conditions."""
    met = _pairs(["h%2 = 0", "h%4 = 0", "2*(h//4) = h//2", "4*(h//4) = h", "w%4 = 0",
                  "2*(w//2) = w"])
    kept = without_implied_by_divisors(met)
    assert [f"{a} = {b}" for a, b in kept] == ["h%4 = 0", "w%4 = 0"]
    # every equation left out holds wherever those kept do
    for values in _assignments({"h", "w"}, 48):
        if all(_holds(a, b, values) for a, b in kept):
            assert all(_holds(a, b, values) for a, b in met)


def test_conditions_that_do_not_divide_each_other_stay():
    # 4 and 6: h is a multiple of 12, which neither says alone; both are kept, and so is an
    # equation neither implies
    met = _pairs(["h%4 = 0", "h%6 = 0", "3*(h//3) = h", "h//2 = w"])
    assert without_implied_by_divisors(met) == met


def test_a_run_that_breaks_a_divisibility_says_so():
    """A pool by 2 upsampled back and added to its input: h%2 = 0, which an odd length
    breaks: the executor's error says what the graph requires, as it says a range."""
    import numpy as np

    import shape_logic
    from shape_logic.executor import ExecutionError

    graph = pooled_and_upsampled()
    sol = shape_logic.solve(graph)
    assert sol.constraints == ["h%2 = 0"]
    assert sol.unmet({"b": 1, "h": 5}) == ["h%2 = 0"] and sol.unmet({"b": 1, "h": 6}) == []
    assert shape_logic.run(graph, {"x": np.ones((1, 4, 6), np.float32)})["y"].shape == (1, 4, 6)
    with pytest.raises(ExecutionError, match=r"bindings: b=1, h=5; the graph requires h%2 = 0\)"):
        shape_logic.run(graph, {"x": np.ones((1, 4, 5), np.float32)})
