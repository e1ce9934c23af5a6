"""Broadcasting a dim that may be 0 (encodings/broadcast.lp, @bcast).

Symbols are >= 1, so two symbols that may each be 1 broadcast to their max. An
expression may be 0 (a Slice of [n] from 1 has min(1000, n) - 1 elements): [0] and [1]
broadcast to [0], not to their max, and no max is claimed there."""
import numpy as np
from hypothesis import given, settings, strategies as st

import shape_logic


def sliced_plus(start: int) -> dict:
    """z = x[start:] + y, x: [n], y: [m]."""
    return {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                       "y": {"dtype": "f32", "shape": "[m]"}},
            "initializers": {"st": {"dtype": "i64", "shape": [1], "data": [start]},
                             "en": {"dtype": "i64", "shape": [1], "data": [1000]}},
            "nodes": [{"op": "Slice", "inputs": ["x", "st", "en"], "outputs": ["xs"]},
                      {"op": "Add", "inputs": ["xs", "y"], "outputs": ["z"]}]}


def test_a_dim_that_may_be_0_against_one_that_may_be_1_claims_no_max():
    sol = shape_logic.solve(sliced_plus(1))
    assert sol.shape("xs") == "[min(1000, n) - 1]"
    assert "max(" not in sol.shape("z")  # max(m, min(1000, n) - 1) is 1 at n = m = 1
    # the executor checks every tensor against the inferred shapes (match_cast)
    assert shape_logic.run(sliced_plus(1), {"x": np.zeros(1, np.float32),
                                            "y": np.zeros(1, np.float32)})["z"].shape == (0,)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2), st.integers(1, 6), st.sampled_from(["one", "same"]))
def test_inferred_shapes_hold_at_small_sizes(start, n, m_is):
    """Whatever is inferred holds when run, sizes of 0 included (an error otherwise)."""
    kept = max(0, n - start)
    m = 1 if m_is == "one" else max(kept, 1)  # (a valid broadcast either way)
    out = shape_logic.run(sliced_plus(start), {"x": np.zeros(n, np.float32),
                                               "y": np.zeros(m, np.float32)})
    assert out["z"].shape == np.broadcast_shapes((kept,), (m,))


def test_a_clamp_of_a_dim_at_0_is_that_dim():
    # Range(0, n - 3) has max(0, n - 3) elements; broadcast against a tensor whose dim is
    # n - 3 (so n - 3 >= 0 wherever the graph runs) the axis is n - 3
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                    "t": {"dtype": "f32", "shape": "[n - 3]"}},
         "initializers": {"zero": {"dtype": "i64", "shape": [], "data": 0},
                          "one": {"dtype": "i64", "shape": [], "data": 1},
                          "three": {"dtype": "i64", "shape": [], "data": 3}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Squeeze", "inputs": ["sh"], "outputs": ["n"]},
                   {"op": "Sub", "inputs": ["n", "three"], "outputs": ["len"]},
                   {"op": "Range", "inputs": ["zero", "len", "one"], "outputs": ["r"]},
                   {"op": "Cast", "inputs": ["r"], "outputs": ["rf"], "attrs": {"to": 1}},
                   {"op": "Add", "inputs": ["t", "rf"], "outputs": ["z"]}]}
    sol = shape_logic.solve(g)
    assert sol.shape("r") == "[max(0, n - 3)]" and sol.shape("z") == "[n - 3]"
    out = shape_logic.run(g, {"x": np.zeros(5, np.float32), "t": np.zeros(2, np.float32)})
    assert out["z"].shape == (2,)
