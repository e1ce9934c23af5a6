"""The arithmetic of an If branch's bounds (asp/floors.py): a ceiling found by `most`, and
bounds under floors and ceilings together (encodings/conditions.lp gives a branch's own
names these; tests/ops/test_If_conditions.py has the graphs)."""
import pytest

from shape_logic.asp.floors import Floors, most
from shape_logic.symbolic.values import function_of
from shape_logic.symbolic.parse import parse_dim


@pytest.mark.parametrize("text, ceiling", [
    ("5 - s", 4),                 # the else-branch of s > 4
    ("4 - s//2", 7),
    ("10 - (s + 1)//2", 18),
    ("5 - s*s", 2),
])
def test_most_is_the_last_value_that_runs(text, ceiling):
    e = parse_dim(text)
    assert most(e) == ("s", ceiling)
    assert function_of(e, "s")(ceiling) >= 1
    assert all(function_of(e, "s")(v) < 1 for v in range(ceiling + 1, ceiling + 500))


@pytest.mark.parametrize("text", [
    "s - 3",          # a floor, no ceiling
    "4 - s%3",        # >= 2 whatever s is
    "s%7 - 5",        # >= 1 again and again: no bound proves the end
    "5 - s - t",      # two symbols
    "s//5000 - 1",    # past the values tried
])
def test_no_ceiling_where_none_is_proven(text):
    assert most(parse_dim(text)) is None


def test_bounds_under_a_floor_and_a_ceiling():
    f = Floors({"s": 3}, {"t": 4})
    assert f.bounds(parse_dim("8 - t")) == (4, 7)
    assert f.bounds(parse_dim("s - t"))[0] == -1
    assert str(f.simplified(parse_dim("min(8, t)"))) == "t"
    assert str(f.simplified(parse_dim("max(0, 4 - t)"))) == "4 - t"
    assert str(f.simplified(parse_dim("min(2, s) + min(t, s)"))) == "min(s, t) + 2"
    # a floor above a ceiling (a branch that cannot run) says nothing more than e alone
    g = Floors({"t": 6}, {"t": 4})
    assert g.bounds(parse_dim("t - 1"))[0] == 0
