"""A Reshape's inferred axis is >= 1 wherever the graph runs when the count it splits is
(schema.lp's at_least_one): its quotient is exact there, though its floor may be 0 at
sizes where the Reshape fails. A broadcast then gives the max of it and a symbol, where it
gave a fresh name for a side that may be 0 (0 against 1 broadcasts to 0)."""
import numpy as np
import pytest

import shape_logic
from shape_logic.symbolic.expr import Expr


def _landmarks(sliced: bool = False) -> dict:
    """Nystromformer's landmarks: keys [b, 4, s, 8] reshaped to [-1, 4, 4, 2, 8] (the
    exporter traced s // 4 landmarks as 2), averaged, and multiplied with the queries.
    `sliced`: the keys' first position dropped first, s - 1 of them."""
    g = {
        "opset": 17,
        "inputs": {"q": {"dtype": "f32", "shape": "[b, 4, s, 8]"},
                   "k": {"dtype": "f32", "shape": "[b, 4, s, 8]"}},
        "initializers": {"sh": {"dtype": "i64", "shape": [5], "data": [-1, 4, 4, 2, 8]},
                         "st": {"dtype": "i64", "shape": [1], "data": [1]},
                         "en": {"dtype": "i64", "shape": [1], "data": [2**62]},
                         "ax": {"dtype": "i64", "shape": [1], "data": [2]}},
        "nodes": [
            {"op": "Reshape", "inputs": ["keys", "sh"], "outputs": ["kr"]},
            {"op": "ReduceMean", "inputs": ["kr"], "outputs": ["km"],
             "attrs": {"axes": [-2], "keepdims": 0}},
            {"op": "Transpose", "inputs": ["km"], "outputs": ["kt"],
             "attrs": {"perm": [0, 1, 3, 2]}},
            {"op": "MatMul", "inputs": ["q", "kt"], "outputs": ["y"]}]}
    g["nodes"].insert(0, {"op": "Slice", "inputs": ["k", "st", "en", "ax"], "outputs": ["keys"]}
                      if sliced else {"op": "Identity", "inputs": ["k"], "outputs": ["keys"]})
    return g


def test_a_batch_against_a_reshape_s_rows_is_their_max():
    sol = shape_logic.solve(_landmarks())
    assert sol.status == "ok"
    assert sol.shape("kr") == "[b*s//8, 4, 4, 2, 8]"
    assert sol.shape("y") == "[max(b, b*s//8), 4, s, 4]"
    assert sol.constraints == ["b*s%8 = 0"]


@pytest.mark.parametrize("b, s", [(1, 8), (2, 4), (4, 2), (8, 1), (1, 16), (3, 8), (1, 24)])
def test_the_max_is_the_run_s_size(b, s):
    g = _landmarks()
    sol = shape_logic.solve(g)
    dim = sol.dims("y")[0]
    out = shape_logic.run(g, {"q": np.zeros((b, 4, s, 8), np.float32),
                              "k": np.zeros((b, 4, s, 8), np.float32)})
    assert out["y"].shape[0] == dim.subs({"b": Expr.const(b), "s": Expr.const(s)}).value


def test_rows_of_a_count_that_may_be_0_stay_open():
    # the keys one position shorter, s - 1, are none at s = 1: the Reshape then runs with
    # no rows, the broadcast gives 0 at b = 1, and max(b, ..) would say 1
    g = _landmarks(sliced=True)
    sol = shape_logic.solve(g)
    assert sol.shape("keys") == "[b, 4, s - 1, 8]"
    assert sol.shape("kr") == "[(b*s - b)//8, 4, 4, 2, 8]"
    assert sol.shape("y").startswith("[_")  # no max: the rows may be 0
    out = shape_logic.run(g, {"q": np.zeros((1, 4, 1, 8), np.float32),
                              "k": np.zeros((1, 4, 1, 8), np.float32)})
    assert out["y"].shape[0] == 0
