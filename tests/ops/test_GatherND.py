"""GatherND: rules/GatherND.lp on data cases, and against onnx's reference; onnxruntime's
com.microsoft GatherND on data cases and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import shape_logic
from shape_logic.kernels.GatherND import GatherND
from shape_logic.testing import check_against_reference, check_case, random_array
from tests.contrib_ops import MS, check_against_onnxruntime
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


def _mask_read() -> dict:
    """A mask [b, t] read at (i, j) pairs for i < b and j < s, the two coordinates joined
    along the last axis (Mistral's attention mask through torch.export): [b, s, 2]
    indices."""
    def scalar(v):
        return {"dtype": "i64", "shape": [], "data": v}

    def vector(*v):
        return {"dtype": "i64", "shape": [len(v)], "data": list(v)}

    return {"opset": 18, "inputs": {"mask": {"dtype": "i64", "shape": "[b, t]"},
                                   "x": {"dtype": "i64", "shape": "[b, s]"}},
            "initializers": {"zero": scalar(0), "one": scalar(1), "col": vector(-1, 1),
                             "row": vector(1, -1), "last": vector(2)},
            "nodes": [
                {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sx"]},
                {"name": "b", "op": "Gather", "inputs": ["sx", "zero"], "outputs": ["b"]},
                {"name": "s", "op": "Gather", "inputs": ["sx", "one"], "outputs": ["s"]},
                {"name": "ri", "op": "Range", "inputs": ["zero", "b", "one"], "outputs": ["ri"]},
                {"name": "rj", "op": "Range", "inputs": ["zero", "s", "one"], "outputs": ["rj"]},
                {"name": "ci", "op": "Reshape", "inputs": ["ri", "col"], "outputs": ["ci"]},
                {"name": "cj", "op": "Reshape", "inputs": ["rj", "row"], "outputs": ["cj"]},
                {"name": "ei", "op": "Expand", "inputs": ["ci", "sx"], "outputs": ["ei"]},
                {"name": "ej", "op": "Expand", "inputs": ["cj", "sx"], "outputs": ["ej"]},
                {"name": "ui", "op": "Unsqueeze", "inputs": ["ei", "last"], "outputs": ["ui"]},
                {"name": "uj", "op": "Unsqueeze", "inputs": ["ej", "last"], "outputs": ["uj"]},
                {"name": "pairs", "op": "Concat", "inputs": ["ui", "uj"], "outputs": ["idx"],
                 "attrs": {"axis": -1}},
                {"name": "read", "op": "GatherND", "inputs": ["mask", "idx"],
                 "outputs": ["y"]}]}


def test_coordinates_joined_bound_each_its_own_axis():
    from shape_logic.executor import ExecutionError, run

    # coordinate 0 runs over the batch (its own axis), coordinate 1 over s: s <= t
    sol = shape_logic.solve(_mask_read())
    assert sol.status == "ok" and sol.shape("y") == "[b, s]"
    assert sol.inequalities == ["s <= t"] and sol.ranges == {}
    for b, s, t in ((2, 3, 3), (2, 3, 5), (1, 4, 3)):
        feeds = {"mask": np.ones((b, t), np.int64), "x": np.zeros((b, s), np.int64)}
        if s <= t:
            assert sol.unmet({"b": b, "s": s, "t": t}) == []
            assert run(_mask_read(), feeds)["y"].shape == (b, s)
        else:
            assert sol.unmet({"b": b, "s": s, "t": t}) == ["s <= t"]
            with pytest.raises(ExecutionError):
                run(_mask_read(), feeds)


# onnxruntime's com.microsoft GatherND: ONNX's without batch_dims at any opset, int32 or
# int64 indices, and indices [..., 0] (no coordinate) take the whole of X at each position
MS_CASES = {
    "full coordinates, opset 9": ({"inputs": ["[a, b]", ("i64", "[n, 2]")], "opset": 9},
                                  {"y0": "[n]"}),
    "int32 indices": ({"inputs": ["[a, b, c]", ("i32", "[n, m, 1]")]},
                      {"y0": "[n, m, b, c]", "dtypes": {"y0": "f32"}}),
    "no coordinate: the whole of X": ({"inputs": ["[a, b]", ("i64", "[n, 0]")]},
                                      {"y0": "[n, a, b]"}),
    "strings": ({"inputs": [("str", "[a, b]"), ("i64", "[n, 1]")]},
                {"y0": "[n, b]", "dtypes": {"y0": "str"}}),
    "a coordinate count the data decides: Y's rank unknown": (
        {"inputs": ["[a, b, c]", ("i64", "[n, k]")]}, {"y0": "_1"}),
    "no coordinate of a scalar": ({"inputs": ["[]", ("i64", "[n, 0]")]}, "error"),
    "scalar indices": ({"inputs": ["[a, b]", ("i64", "[]")]}, "error"),
    "too many coordinates": ({"inputs": ["[a, b]", ("i64", "[n, 3]")]}, "error"),
    "int16 indices": ({"inputs": ["[a, b]", ("i16", "[n, 1]")]}, "error"),
    "bfloat16 data": ({"inputs": [("bf16", "[a, b]"), ("i64", "[n, 1]")]}, "error"),
    "batch_dims": ({"inputs": ["[b, s, d]", ("i64", "[b, k, 1]")], "attrs": {"batch_dims": 1}},
                   "input error"),
    "batch_dims 0": ({"inputs": ["[b, s]", ("i64", "[k, 1]")], "attrs": {"batch_dims": 0}},
                     "input error"),
}


@pytest.mark.parametrize("name", MS_CASES)
def test_com_microsoft_case(name):
    spec, expected = MS_CASES[name]
    check_case("GatherND", {**spec, "domain": MS}, expected)


def test_com_microsoft_batch_dims_is_refused_by_kernel_and_onnxruntime():
    from tests.contrib_ops import onnxruntime_verdict

    x, idx = np.zeros((2, 3), np.float32), np.zeros((2, 1), np.int64)
    assert onnxruntime_verdict("GatherND", [x, idx], {"batch_dims": 0}) == "rejected"
    with pytest.raises(Exception, match="no attribute batch_dims"):
        GatherND({"batch_dims": 0}, domain=MS)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data(),
       st.sampled_from([np.float32, np.int64, np.uint8, np.bool_]),
       st.sampled_from([np.int64, np.int32]))
def test_com_microsoft_matches_onnxruntime(shape, data, dtype, itype):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel
    (k = 0 coordinates too; negative indices; k past the rank: both refuse it)."""
    k = data.draw(st.integers(0, len(shape) + 1))
    outer = data.draw(st.lists(st.integers(0, 3), max_size=2)) + [k]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    idx = np.stack([rng.integers(-shape[j], shape[j], size=outer[:-1]) if j < len(shape)
                    else np.zeros(outer[:-1], np.int64) for j in range(k)],
                   axis=-1) if k else np.zeros(outer, np.int64)
    x = random_array(shape, rng=rng).astype(dtype)
    check_against_onnxruntime("GatherND", [x, idx.astype(itype)])
