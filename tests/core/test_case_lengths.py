"""Slice lengths known case by case (rules/Slice.lp's case_length: a start or an end whose
sign the solver cannot tell), broadcast against the length of one case (broadcast.lp,
@one_where): the output keeps that dim where it can be 1 only in that case."""
import numpy as np
import pytest

import shape_logic
from shape_logic.asp.comparisons import one_only_where
from shape_logic.symbolic.parse import parse_dim as parse

INT64_MAX = 9223372036854775807


def alibi(table: int = 64) -> dict:
    """MPT's ALiBi bias: a [4, 1, table] table sliced from table - seq to the end (seq
    positions while seq <= table; past it the start counts from the end: 2*table - seq
    to the end, fewer than seq) and added to the scores [b, 4, seq, seq]."""
    return {"inputs": {"s": {"dtype": "f32", "shape": "[b, 4, seq, seq]"}},
            "initializers": {
                "tab": {"dtype": "f32", "shape": [4, 1, table],
                        "data": [[[0.0] * table]] * 4},
                "len": {"dtype": "i64", "shape": [1], "data": [table]},
                "two": {"dtype": "i64", "shape": [1], "data": [2]},
                "end": {"dtype": "i64", "shape": [1], "data": [INT64_MAX]}},
            "nodes": [{"op": "Shape", "inputs": ["s"], "outputs": ["sh"]},
                      {"op": "Gather", "inputs": ["sh", "two"], "outputs": ["n"],
                       "attrs": {"axis": 0}},
                      {"op": "Sub", "inputs": ["len", "n"], "outputs": ["st"]},
                      {"op": "Slice", "inputs": ["tab", "st", "end", "two"], "outputs": ["al"]},
                      {"op": "Add", "inputs": ["s", "al"], "outputs": ["z"]}]}


def test_a_table_sliced_from_its_length_minus_seq_keeps_the_scores_seq():
    sol = shape_logic.solve(alibi())
    # (seq up to 64, then seq - 64 up to 128, then 64: open)
    assert sol.shape("al") == "[4, 1, _1]"
    assert sol.shape("z") == "[b, 4, seq, seq]"
    # the executor checks every tensor against the inferred shapes; 65 positions take
    # one column, which broadcasts; 66 take two, and the Add fails
    for seq in (1, 5, 64, 65):
        out = shape_logic.run(alibi(), {"s": np.zeros((2, 4, seq, seq), np.float32)})
        assert out["z"].shape == (2, 4, seq, seq)


def test_the_same_slice_against_a_dim_that_may_be_1_elsewhere_stays_open():
    # against [b, 4, seq, t]: t is no case's length (seq is), the broadcast stays open
    g = alibi()
    g["inputs"]["s"]["shape"] = "[b, 4, seq, t]"
    g["nodes"][1]["inputs"] = ["sh", "two"]
    sol = shape_logic.solve(g)
    assert sol.shape("z").startswith("[b, 4, seq, _")


def padded_and_cut() -> dict:
    """Longformer's padding to whole windows of 4 cut back off as x[:-pad] (LED's encoder):
    n elements where n % 4 != 0, none where the pad is 0; added to y [n], which fails there
    (n >= 4 is no 1), so z is [n]."""
    return {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                       "y": {"dtype": "f32", "shape": "[n]"}},
            "initializers": {"four": {"dtype": "i64", "shape": [], "data": 4},
                             "zero": {"dtype": "i64", "shape": [1], "data": [0]},
                             "axes": {"dtype": "i64", "shape": [1], "data": [0]}},
            "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                      {"op": "Squeeze", "inputs": ["sh"], "outputs": ["n"]},
                      {"op": "Mod", "inputs": ["n", "four"], "outputs": ["r"]},
                      {"op": "Sub", "inputs": ["four", "r"], "outputs": ["q"]},
                      {"op": "Mod", "inputs": ["q", "four"], "outputs": ["pad"]},
                      {"op": "Unsqueeze", "inputs": ["pad", "axes"], "outputs": ["pad1"]},
                      {"op": "Concat", "inputs": ["zero", "pad1"], "outputs": ["pads"],
                       "attrs": {"axis": 0}},
                      {"op": "Pad", "inputs": ["x", "pads"], "outputs": ["xp"]},
                      {"op": "Neg", "inputs": ["pad1"], "outputs": ["end"]},
                      {"op": "Slice", "inputs": ["xp", "zero", "end"], "outputs": ["xc"]},
                      {"op": "Add", "inputs": ["xc", "y"], "outputs": ["z"]}]}


def test_a_padding_cut_back_by_an_end_of_either_sign_keeps_n():
    sol = shape_logic.solve(padded_and_cut())
    assert sol.shape("xp") == "[n + 3*n%4]"
    assert sol.shape("xc").startswith("[_")
    assert sol.shape("z") == "[n]"
    for n in (1, 2, 3, 5, 7):
        out = shape_logic.run(padded_and_cut(), {"x": np.zeros(n, np.float32),
                                                 "y": np.zeros(n, np.float32)})
        assert out["z"].shape == (n,)
    with pytest.raises(Exception):  # n = 4: x[:0] is empty, and [0] + [4] fails
        shape_logic.run(padded_and_cut(), {"x": np.zeros(4, np.float32),
                                           "y": np.zeros(4, np.float32)})


@pytest.mark.parametrize("e, c, holds", [
    ("s", "64 - s", True),          # s = 1 only at s = 1, where 63 >= 0
    ("s", "s - 2", False),          # at s = 1, -1
    ("s - 3", "s - 4", True),       # 1 at s = 4 only, where 0 >= 0
    ("2*s", "0 - s", True),         # never 1
    ("s*t", "64 - s", False),       # two symbols: not tried
    ("s//100", "64 - s", False),    # 1 at s = 100..199, past the values tried
    ("s", "3*s%4 - 1", True),       # LED's: at s = 1, 2 >= 0
])
def test_one_only_where(e, c, holds):
    assert one_only_where(parse(e), parse(c)) is holds


def test_a_reshape_carries_the_cases_of_an_axis():
    # the cut reshaped to [1, -1] (rules/Reshape.lp: where the end's case holds, its n
    # elements), then added to y [n]
    g = padded_and_cut()
    g["initializers"]["row"] = {"dtype": "i64", "shape": [2], "data": [1, -1]}
    g["nodes"][-1] = {"op": "Reshape", "inputs": ["xc", "row"], "outputs": ["xr"]}
    g["nodes"].append({"op": "Add", "inputs": ["xr", "y"], "outputs": ["z"]})
    sol = shape_logic.solve(g)
    assert sol.shape("xr").startswith("[1, _")
    assert sol.shape("z") == "[1, n]"
    for n in (1, 3, 6):
        out = shape_logic.run(g, {"x": np.zeros(n, np.float32), "y": np.zeros(n, np.float32)})
        assert out["z"].shape == (1, n)


def cross_attention() -> dict:
    """LED's cross-attention over the cut (padded_and_cut's xc): its scores plus y [n]
    reshaped to Shape(xc), an entry without a value (the cut's count, open), then against
    the cut's rows as keys [-1, 1] by a MatMul, whose contraction makes those rows n."""
    g = padded_and_cut()
    g["initializers"]["col"] = {"dtype": "i64", "shape": [2], "data": [-1, 1]}
    g["initializers"]["row"] = {"dtype": "i64", "shape": [2], "data": [1, -1]}
    g["nodes"] += [{"op": "Shape", "inputs": ["xc"], "outputs": ["shc"]},
                   {"op": "Reshape", "inputs": ["z", "shc"], "outputs": ["zr"]},
                   {"op": "Reshape", "inputs": ["zr", "row"], "outputs": ["r2"]},
                   {"op": "Reshape", "inputs": ["xc", "col"], "outputs": ["v"]},
                   {"op": "MatMul", "inputs": ["r2", "v"], "outputs": ["p"]}]
    return g


def test_a_count_known_outright_sizes_the_entries_a_case_leaves_open():
    sol = shape_logic.solve(cross_attention())
    # z = xc + y carries the cut's case; reshaped to Shape(xc), whose element has no
    # value, it is n (its count over nothing); the MatMul makes v's rows n, and v's
    # count gives the cut back n (Reshape.lp's case_back): the graph runs only there
    assert sol.shape("z") == "[n]" and sol.shape("zr") == "[n]"
    assert sol.shape("v") == "[n, 1]" and sol.shape("xc") == "[n]"
    assert sol.shape("p") == "[1, 1]"
    for n in (1, 3, 5, 7):
        out = shape_logic.run(cross_attention(), {"x": np.zeros(n, np.float32),
                                                  "y": np.zeros(n, np.float32)})
        assert out["p"].shape == (1, 1)
    with pytest.raises(Exception):
        shape_logic.run(cross_attention(), {"x": np.zeros(8, np.float32),
                                            "y": np.zeros(8, np.float32)})
