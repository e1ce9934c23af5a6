"""GatherND: rules/GatherND.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import shape_logic
from shape_logic.kernels.GatherND import GatherND
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "full coordinates: elements": ({"inputs": ["[a, b]", ("i64", "[n, 2]")]}, {"y0": "[n]"}),
    "one coordinate: rows": ({"inputs": ["[a, b, c]", ("i64", "[n, m, 1]")]},
                             {"y0": "[n, m, b, c]"}),
    "batch_dims": ({"inputs": ["[b, s, d]", ("i64", "[b, k, 1]")], "attrs": {"batch_dims": 1}},
                   {"y0": "[b, k, d]"}),
    "batch axes are shared": ({"inputs": ["[b, s, d]", ("i64", "[q, k, 1]")],
                               "attrs": {"batch_dims": 1}}, {"x1": "[b, k, 1]"}),
    "too many coordinates": ({"inputs": ["[a, b]", ("i64", "[n, 3]")]}, "error"),
    "scalar indices": ({"inputs": ["[a, b]", ("i64", "[]")]}, "error"),
}


test_case = case_test("GatherND", CASES)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
def test_matches_reference(shape, data):
    b = data.draw(st.integers(0, len(shape) - 1))
    k = data.draw(st.integers(1, len(shape) - b))
    extra = data.draw(st.lists(st.integers(1, 3), max_size=2))
    rng = np.random.default_rng(len(shape))
    idx_shape = shape[:b] + extra + [k]
    idx = np.stack([rng.integers(0, shape[b + j], size=idx_shape[:-1]) for j in range(k)],
                   axis=-1).astype(np.int64)
    check_against_reference("GatherND", [random_array(shape), idx], {"batch_dims": b})


def test_a_negative_batch_dims_or_no_index_axis_is_refused_by_rule_and_kernel():
    for k, b, reason in ((2, -1, "batch_dims must not be negative: -1"),
                         (0, 0, "its indices' last axis is empty")):
        g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3, 4]"},
                        "i": {"dtype": "i64", "shape": f"[5, {k}]"}},
             "nodes": [{"name": "g", "op": "GatherND", "inputs": ["x", "i"], "outputs": ["y"],
                        "attrs": {"batch_dims": b}}]}
        (d,) = shape_logic.solve(g).diagnostics
        assert d.message.startswith('GatherND "g": ' + reason)
        with pytest.raises(Exception, match="do not fit"):
            GatherND().run(np.zeros((2, 3, 4), np.float32), np.zeros((5, k), np.int64),
                           batch_dims=b)


def _positions(rows: int, length: str = "s", k: int = 1) -> dict:
    """CTRL's positions through torch.export: arange(length) as indices [1, length, k]
    (the same coordinate k times) into a table [rows] * k + [8]."""
    def scalar(v):
        return {"dtype": "i64", "shape": [], "data": v}

    table = [rows] * k + [8]
    return {"opset": 18, "inputs": {"x": {"dtype": "i64", "shape": f"[1, {length}]"}},
            "initializers": {"zero": scalar(0), "one": scalar(1),
                             "ax": {"dtype": "i64", "shape": [1], "data": [0]},
                             "last": {"dtype": "i64", "shape": [1], "data": [-1]},
                             "reps": {"dtype": "i64", "shape": [3], "data": [1, 1, k]},
                             "table": {"dtype": "f32", "shape": table,
                                       "data": np.zeros(table, np.float32).tolist()}},
            "nodes": [
                {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sx"]},
                {"name": "len", "op": "Gather", "inputs": ["sx", "one"], "outputs": ["n"]},
                {"name": "range", "op": "Range", "inputs": ["zero", "n", "one"],
                 "outputs": ["pos"]},
                {"name": "u0", "op": "Unsqueeze", "inputs": ["pos", "ax"], "outputs": ["p2"]},
                {"name": "u1", "op": "Unsqueeze", "inputs": ["p2", "last"], "outputs": ["p3"]},
                {"name": "tile", "op": "Tile", "inputs": ["p3", "reps"], "outputs": ["ids"]},
                {"name": "emb", "op": "GatherND", "inputs": ["table", "ids"],
                 "outputs": ["y"]}]}


def test_positions_of_the_sequence_bound_it_by_the_table():
    # onnxruntime: "invalid index found, index = 64" at s = 65
    sol = shape_logic.solve(_positions(64))
    assert sol.status == "ok" and sol.ranges == {"s": [1, 64]}
    assert sol.shape("y") == "[1, s, 8]"
    # two coordinates: the greatest index is one coordinate's, which says nothing of the
    # other's axis (here the same arange, but in general not): nothing is required
    sol = shape_logic.solve(_positions(48, k=2))
    assert sol.status == "ok" and sol.ranges == {} and sol.shape("y") == "[1, s, 8]"
    # 100 positions (too many to list their values) into 64 rows: index 99 out of range
    sol = shape_logic.solve(_positions(64, length="100"))
    assert sol.status == "error"
    assert "99" in sol.diagnostics[0].message and "64" in sol.diagnostics[0].message
    assert shape_logic.solve(_positions(100, length="100")).status == "ok"


def test_a_run_past_the_table_says_what_the_graph_requires():
    from shape_logic.executor import ExecutionError, run

    g = _positions(64)
    assert run(g, {"x": np.zeros((1, 64), np.int64)})["y"].shape == (1, 64, 8)
    with pytest.raises(ExecutionError, match=r"the graph requires s in 1\.\.64"):
        run(g, {"x": np.zeros((1, 65), np.int64)})
