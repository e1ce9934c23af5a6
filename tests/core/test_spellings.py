"""Equal sizes print alike (shape_logic/spellings.py): a size the arithmetic reaches in two
normal forms is printed in one, the simpler, wherever it appears."""
import numpy as np
import pytest

import shape_logic
from shape_logic.decode import simplicity
from shape_logic.spellings import alike
from shape_logic.symbolic.expr import Expr
from shape_logic.shapes import parse_shape


def _padded_to_blocks(block: int) -> dict:
    """x [b, n, 4] padded along n to a multiple of `block` (pads (-n) mod block, as torch
    computes them), split into blocks of `block` rows and joined again."""
    i64 = "i64"
    return {
        "inputs": {"x": {"dtype": "f32", "shape": "[b, n, 4]"}},
        "initializers": {
            "one": {"dtype": i64, "data": 1}, "block": {"dtype": i64, "data": block},
            "zeros4": {"dtype": i64, "shape": [4], "data": [0, 0, 0, 0]},
            "zero1": {"dtype": i64, "shape": [1], "data": [0]},
            "split": {"dtype": i64, "shape": [4], "data": [0, -1, block, 4]},
            "join": {"dtype": i64, "shape": [3], "data": [0, -1, 4]},
            "axes0": {"dtype": i64, "shape": [1], "data": [0]}},
        "nodes": [
            {"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
            {"op": "Gather", "inputs": ["s", "one"], "outputs": ["len"]},
            {"op": "Neg", "inputs": ["len"], "outputs": ["neg"]},
            {"op": "Mod", "inputs": ["neg", "block"], "outputs": ["missing"]},
            {"op": "Unsqueeze", "inputs": ["missing", "axes0"], "outputs": ["missing1"]},
            {"op": "Concat", "inputs": ["zeros4", "missing1", "zero1"], "outputs": ["pads"],
             "attrs": {"axis": 0}},
            {"op": "Pad", "inputs": ["x", "pads"], "outputs": ["padded"]},
            {"op": "Reshape", "inputs": ["padded", "split"], "outputs": ["blocks"]},
            {"op": "Reshape", "inputs": ["blocks", "join"], "outputs": ["joined"]}]}


def test_a_padded_length_prints_alike_after_a_split_and_a_join():
    g = _padded_to_blocks(8)
    sol = shape_logic.solve(g)
    assert sol.status == "ok"
    padded, joined = sol.shape("padded"), sol.shape("joined")
    # (the Pad gives n + 7*n%8, the Reshapes 8 times its blocks, 8*((n + 7*n%8)//8))
    assert padded == joined == "[b, 8*((n + 7*n%8)//8), 4]"
    assert sol.shape("blocks") == "[b, (n + 7*n%8)//8, 8, 4]"
    for n in (1, 5, 8, 13, 16):
        out = shape_logic.run(g, {"x": np.zeros((2, n, 4), np.float32)})
        want = parse_shape(padded).dims[1].subs({"n": Expr.const(n)})
        assert want.is_int and out["joined"].shape == (2, want.value, 4), n


def _e(text: str) -> Expr:
    return parse_shape(f"[{text}]").dims[0]


def test_only_sizes_equal_at_every_value_are_joined():
    same = [_e("n + 7*n%8"), _e("8*((n + 7*n%8)//8)")]
    assert alike(same, simplicity) == {same[0]: same[1]}
    # equal at the samples' multiples of 8 only: n//8*8 is n there, not at n = 3
    assert alike([_e("8*(n//8)"), _e("n")], simplicity) == {}
    # a multiple of an identity in another symbol: b*(n + 7*n%8) is b times the above
    pair = [_e("b*(n + 7*n%8)"), _e("8*b*((n + 7*n%8)//8)")]
    assert alike(pair, simplicity) == {pair[0]: pair[1]}
    # two symbols in the difference itself: not told, left as they are
    assert alike([_e("(n + m)//2 + (n + m + 1)//2"), _e("n + m")], simplicity) == {}


@pytest.mark.parametrize("block", [2, 4, 8])
def test_the_joined_spelling_is_the_run_s_size(block):
    g = _padded_to_blocks(block)
    sol = shape_logic.solve(g)
    dim = sol.dims("joined")[1]
    assert dim == sol.dims("padded")[1]
    for n in range(1, 3 * block + 2):
        out = shape_logic.run(g, {"x": np.zeros((1, n, 4), np.float32)})
        assert out["joined"].shape[1] == dim.subs({"n": Expr.const(n)}).value, (block, n)
