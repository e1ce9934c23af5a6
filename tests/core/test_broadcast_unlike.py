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


@pytest.mark.parametrize("a, b", [("[s]", "[3]"), ("[s]", "[s - 1]"), ("[a]", "[b]")])
def test_sides_that_may_be_equal_bind_nothing(a, b):
    # [s] + [3] runs at s = 1 and s = 3; [s] + [s - 1] at s = 1 (giving 0) and 2
    sol = solve(_add(a, b))
    assert sol.status == "ok" and sol.bindings == {} and not sol.ranges


def test_two_sides_that_cannot_be_one_still_collide_at_the_output():
    sol = solve(_add("[s + 1]", "[s + 2]"))
    assert [d.code for d in sol.diagnostics] == ["E0001"]
    assert sol.diagnostics[0].message.endswith("needs x.shape[0] == z.shape[0]")
