"""Broadcasting two values that can never be equal (encodings/broadcast.lp, bc_one): the
output takes one side's value, so the other side must be 1 where it may be. [s] + [s + 1]
runs only at s = 1, which the solve now says (a binding) instead of printing [s]."""
import numpy as np
import pytest

from shape_logic import solve

SIZES = range(1, 40)


def _add(a: str, b: str) -> dict:
    return {"inputs": {"x": {"dtype": "f32", "shape": a}, "z": {"dtype": "f32", "shape": b}},
            "nodes": [{"name": "add", "op": "Add", "inputs": ["x", "z"], "outputs": ["y"]}]}


def _runs(fa, fb) -> dict:
    """s -> the broadcast of [fa(s)] and [fb(s)] (numpy's), for the s where it runs."""
    out = {}
    for s in SIZES:
        try:
            out[s] = np.broadcast_shapes((fa(s),), (fb(s),))[0]
        except ValueError:
            pass
    return out


@pytest.mark.parametrize("a, b, fa, fb", [
    ("[s]", "[s + 1]", lambda s: s, lambda s: s + 1),
    ("[2*s]", "[2*s - 1]", lambda s: 2 * s, lambda s: 2 * s - 1),
    ("[s + 3]", "[s//2]", lambda s: s + 3, lambda s: s // 2),
])
def test_a_side_provably_unlike_the_other_is_one(a, b, fa, fb):
    runs = _runs(fa, fb)
    assert list(runs) == [1] or list(runs) == [2, 3]  # (what the rule rests on)
    sol = solve(_add(a, b))
    assert sol.status == "ok"
    if list(runs) == [1]:
        assert sol.bindings == {"s": 1}
        assert sol.shape("y") == f"[{runs[1]}]"
    else:  # s//2 = 1: s is 2 or 3, and y is s + 3 there
        assert sol.ranges == {"s": [2, 3]} and sol.shape("z") == "[1]"
        assert sol.shape("y") == "[s + 3]"


@pytest.mark.parametrize("a, b, ranges", [("[s]", "[3]", {}), ("[s]", "[s - 1]", {"s": [1, 2]}),
                                          ("[a]", "[b]", {})])
def test_sides_that_may_be_equal_bind_nothing(a, b, ranges):
    # [s] + [3] runs at s = 1 and s = 3 (a requirement, one_of); [s] + [s - 1] at s = 1
    # (giving 0) and 2, and past 2 at no size (broadcast.lp's @broadcast_range: a range)
    sol = solve(_add(a, b))
    assert sol.status == "ok" and sol.bindings == {} and sol.ranges == ranges


def test_two_sides_that_cannot_be_one_still_collide_at_the_output():
    sol = solve(_add("[s + 1]", "[s + 2]"))
    assert [d.code for d in sol.diagnostics] == ["E0001"]
    assert sol.diagnostics[0].message.endswith("needs x.shape[0] == z.shape[0]")


# affine sizes of one symbol s, paired every way: the solve against numpy at s = 1..39
AFFINE = ["s", "s + 1", "s + 2", "2*s", "2*s - 1", "3*s - 2", "s//2", "s//2 + 1", "4", "1"]


def _value(text: str, s: int) -> int:
    from shape_logic.symbolic.expr import Expr
    from shape_logic.symbolic.parse import parse_dim

    e = parse_dim(text).subs({"s": Expr.const(s)})
    assert e.is_int
    return e.value


@pytest.mark.parametrize("a", AFFINE)
@pytest.mark.parametrize("b", AFFINE)
def test_the_solve_holds_at_every_size_that_runs(a, b):
    # (taking either side as 1 wherever it differs lost s = 4 of [s//2] + [4]: 9 pairs fail)
    runs = _runs(lambda s: _value(a, s), lambda s: _value(b, s))
    sol = solve(_add(f"[{a}]", f"[{b}]"))
    if not runs:  # no size runs: an error, or ok where nothing was said of s
        assert sol.status == "error" or not sol.bindings
        return
    assert sol.status == "ok"
    bound = sol.bindings.get("s")
    lo, hi = sol.ranges.get("s", (1, None))
    for s, want in runs.items():  # every size that runs stays allowed, with the right shape
        assert bound in (None, s) and lo <= s and (hi is None or s <= hi), (s, sol.bindings)
        got = sol.shape("y")[1:-1]
        if not got.startswith("_"):  # (a fresh name: the size is left open)
            assert _value(got, s) == want
