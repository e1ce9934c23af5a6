"""Bounds of index values (encodings/families.lp's value_bounds): an arange over a symbolic
length (Range, or NonZero of a filled vector) keeps its bounds through copies (Expand,
Tile, Transpose, Slice), shifted or scaled by a known integer and summed with another
bounded tensor; a Gather at such indices requires the greatest below its axis's size.
Checked at every size of a grid against our executor: a size runs exactly where the
requirement holds."""
import numpy as np
import pytest

from shape_logic import solve
from shape_logic.executor import ExecutionError, run


def scalar(v):
    return {"dtype": "i64", "shape": [], "data": v}


def vector(*v):
    return {"dtype": "i64", "shape": [len(v)], "data": list(v)}


def _strided(stride: int, filled: bool = False) -> dict:
    """x [b, s] flattened, gathered at the strided view i*stride + j (i < b, j < s): a view
    strided for the traced s = stride (Longformer's as_strided, exported with its traced
    strides). The aranges over b and s are Ranges, or over b a NonZero of a filled vector
    (the legacy exporter's arange) if `filled`."""
    nodes = [
        {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sx"]},
        {"name": "b", "op": "Gather", "inputs": ["sx", "zero"], "outputs": ["b"]},
        {"name": "s", "op": "Gather", "inputs": ["sx", "one"], "outputs": ["s"]},
        {"name": "rs", "op": "Range", "inputs": ["zero", "s", "one"], "outputs": ["j"]},
        {"name": "scale", "op": "Mul", "inputs": ["i2", "stride"], "outputs": ["rows"]},
        {"name": "index", "op": "Add", "inputs": ["rows", "j"], "outputs": ["idx"]},
        {"name": "flat", "op": "Reshape", "inputs": ["x", "minus1"], "outputs": ["f"]},
        {"name": "view", "op": "Gather", "inputs": ["f", "idx"], "outputs": ["y"]}]
    if filled:
        nodes[3:3] = [
            {"name": "bv", "op": "Unsqueeze", "inputs": ["b", "ax0"], "outputs": ["bv"]},
            {"name": "ones", "op": "ConstantOfShape", "inputs": ["bv"], "outputs": ["o"],
             "attrs": {"value": {"dtype": "i64", "shape": [1], "data": [1]}}},
            {"name": "nz", "op": "NonZero", "inputs": ["o"], "outputs": ["nz"]},
            {"name": "col", "op": "Transpose", "inputs": ["nz"], "outputs": ["i2"]}]
    else:
        nodes[3:3] = [
            {"name": "rb", "op": "Range", "inputs": ["zero", "b", "one"], "outputs": ["i"]},
            {"name": "col", "op": "Unsqueeze", "inputs": ["i", "ax1"], "outputs": ["i2"]}]
    return {"opset": 18, "inputs": {"x": {"dtype": "f32", "shape": "[b, s]"}},
            "initializers": {"zero": scalar(0), "one": scalar(1), "stride": scalar(stride),
                             "minus1": vector(-1), "ax0": vector(0), "ax1": vector(1)},
            "nodes": nodes}


@pytest.mark.parametrize("filled", [False, True])
def test_a_view_strided_for_one_size_runs_where_its_indices_fit(filled):
    # the greatest index (b - 1)*8 + s - 1 must be below b*s: every b where s = 8, only
    # b = 1 below it, and above it every b (a wider row holds the stride)
    g = _strided(8, filled)
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, s]"
    assert sol.inequalities == ["8*b + s - 8 <= b*s"]
    for b in range(1, 5):
        for s in range(1, 12):
            feeds = {"x": np.arange(b * s, dtype=np.float32).reshape(b, s)}
            fits = (b - 1) * 8 + s - 1 < b * s
            assert (sol.unmet({"b": b, "s": s}) == []) == fits
            if fits:
                assert run(g, feeds)["y"].shape == (b, s)
            else:
                with pytest.raises(ExecutionError):
                    run(g, feeds)


def _shifted_table(op: str, k: int, rows: int, length: str = "s") -> dict:
    """arange(length) `op` k (Mul, Add, Sub), gathered from a table of `rows`."""
    return {"opset": 18, "inputs": {"x": {"dtype": "f32", "shape": f"[{length}]"}},
            "initializers": {"zero": scalar(0), "one": scalar(1), "k": scalar(k),
                             "table": {"dtype": "f32", "shape": [rows],
                                       "data": [0.0] * rows}},
            "nodes": [
                {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sx"]},
                {"name": "s", "op": "Gather", "inputs": ["sx", "zero"], "outputs": ["s"]},
                {"name": "r", "op": "Range", "inputs": ["zero", "s", "one"], "outputs": ["r"]},
                {"name": "op", "op": op, "inputs": ["r", "k"], "outputs": ["idx"]},
                {"name": "take", "op": "Gather", "inputs": ["table", "idx"],
                 "outputs": ["y"]}]}


def test_scaled_and_shifted_aranges_keep_their_bounds():
    # 3*arange(s) into 64 rows: 3*(s - 1) <= 63, s <= 22
    assert solve(_shifted_table("Mul", 3, 64)).ranges == {"s": [1, 22]}
    # arange(s) + 2 into 64 rows: s <= 62; arange(s) - (-2) likewise
    assert solve(_shifted_table("Add", 2, 64)).ranges == {"s": [1, 62]}
    assert solve(_shifted_table("Sub", -2, 64)).ranges == {"s": [1, 62]}
    # -1*arange(s) counts from the end (negative indices): no bound is said
    sol = solve(_shifted_table("Mul", -1, 64))
    assert sol.status == "ok" and sol.ranges == {} and sol.inequalities == []
    # 2*arange(100) reaches 198: a table of 64 rows is an error, one of 199 is not
    sol = solve(_shifted_table("Mul", 2, 64, length="100"))
    assert sol.status == "error" and "198" in sol.diagnostics[0].message
    assert solve(_shifted_table("Mul", 2, 199, length="100")).status == "ok"


def test_the_executor_says_the_bound_it_breaks():
    g = _shifted_table("Mul", 3, 64)
    assert run(g, {"x": np.zeros(22, np.float32)})["y"].shape == (22,)
    with pytest.raises(ExecutionError, match=r"the graph requires s in 1\.\.22"):
        run(g, {"x": np.zeros(23, np.float32)})


def _into_table(rows: int, steps: list, length: int = 100) -> dict:
    """arange(length) through `steps` (nodes reading "r", the last writing "idx"), gathered
    from a table of `rows`."""
    return {"opset": 18, "inputs": {},
            "initializers": {"zero": scalar(0), "one": scalar(1), "n": scalar(length),
                             "c": scalar(length - 1), "ten": vector(10), "z1": vector(0),
                             "shape": vector(0, length),
                             "table": {"dtype": "f32", "shape": [rows],
                                       "data": [0.0] * rows}},
            "nodes": [{"name": "r", "op": "Range", "inputs": ["zero", "n", "one"],
                       "outputs": ["r"]}] + steps + [
                {"name": "take", "op": "Gather", "inputs": ["table", "idx"],
                 "outputs": ["y"]}]}


@pytest.mark.parametrize("steps, shape", [
    # arange(100)[:10]: its greatest element is 9, not 99
    ([{"name": "cut", "op": "Slice", "inputs": ["r", "z1", "ten"], "outputs": ["idx"]}],
     "[10]"),
    # arange(100) + (99 - arange(100)): 99 everywhere, never 198 (aligned, not outer)
    ([{"name": "rev", "op": "Sub", "inputs": ["c", "r"], "outputs": ["b"]},
      {"name": "sum", "op": "Add", "inputs": ["r", "b"], "outputs": ["idx"]}], "[100]"),
    # arange(100) expanded to [0, 100]: no index at all
    ([{"name": "none", "op": "Expand", "inputs": ["r", "shape"], "outputs": ["idx"]}],
     "[0, 100]"),
])
def test_bounds_that_are_not_attained_require_nothing(steps, shape):
    # 64 rows: each of these runs (the reference evaluator too), so no error may be said
    g = _into_table(64 if shape != "[100]" else 100, steps)
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == shape
    assert run(g, {})["y"].shape == tuple(int(d) for d in shape[1:-1].split(", "))
