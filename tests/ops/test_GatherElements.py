"""GatherElements: rules/GatherElements.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, dtype=np.int64)


CASES = {
    "the indices' shape": ({"inputs": ["[b, s]", ("i64", "[b, k]")], "attrs": {"axis": 1}},
                           {"y0": "[b, k]"}),
    "default axis 0": ({"inputs": ["[3, 4]", ("i64", "[5, 4]")]}, {"y0": "[5, 4]"}),
    "negative axis": ({"inputs": ["[s, t]", ("i64", "[n, m]")], "attrs": {"axis": -1}},
                      {"y0": "[n, m]"}),
    "smaller index axes (onnxruntime)": ({"inputs": ["[3, 4]", ("i64", "[2, 2]")],
                                         "attrs": {"axis": 1}}, {"y0": "[2, 2]"}),
    "dtype of the data": ({"inputs": [("i32", "[3]"), ("i64", "[2]")]},
                          {"y0": "[2]", "dtypes": {"y0": "i32"}}),
    "backward: the indices from the output": ({"inputs": ["[3, 4]", ("i64", "I")],
                                               "outputs": {"y0": {"shape": "[k, 4]"}}},
                                              {"x1": "[k, 4]"}),
    "ranks differ": ({"inputs": ["[3, 4]", ("i64", "[2]")]}, "error"),
    "an index axis longer than the data's": ({"inputs": ["[3, 4]", ("i64", "[2, 5]")]}, "error"),
    "axis out of range": ({"inputs": ["[3, 4]", ("i64", "[2, 4]")], "attrs": {"axis": 2}},
                          "error"),
    "index out of range": ({"inputs": ["[3, 4]", i64([[4]])], "attrs": {"axis": 1}}, "error"),
    "negative index out of range": ({"inputs": ["[3, 4]", i64([[-5]])], "attrs": {"axis": 1}},
                                    "error"),
    "float indices": ({"inputs": ["[3, 4]", ("f32", "[2, 4]")]}, "error"),
    "scalar data": ({"inputs": ["[]", ("i64", "[]")]}, "error"),
}


test_case = case_test("GatherElements", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    # Where the reference is not ONNX: it wants the index axes other than `axis` equal to
    # the data's (the rules, as onnxruntime, accept shorter ones), it mishandles negative
    # axes (its cross-section shapes use axis + 1 as a slice start), and it wraps index
    # values out of range (onnxruntime rejects them, the rules too: cases above).  So
    # indices are drawn in range, and the reference may fail alone on shorter index axes
    # and negative axes.  Axes from -r-1..r: out of range, both must fail.
    r = len(shape)
    axis = data.draw(st.integers(-r - 1, r))
    d = shape[axis] if -r <= axis < r else 1
    ishape = [data.draw(st.integers(1, 3)) if i == axis % r else
              data.draw(st.integers(1, n)) for i, n in enumerate(shape)]
    n = int(np.prod(ishape))
    idx = i64(data.draw(st.lists(st.integers(-d, d - 1), min_size=n, max_size=n)))
    shorter = any(ishape[i] != shape[i] for i in range(r) if i != axis % r)
    check_against_reference("GatherElements", [random_array(shape), idx.reshape(ishape)],
                            {"axis": axis}, opset=OPSET, const=[1],
                            reference_fails_ok=shorter or axis < 0)


def _rotary_table(rows: int, length: str = "s") -> dict:
    """GPT-J's rotary table through torch.export: a table [1, rows, 4] gathered along axis 1
    at arange(length) unsqueezed to [1, length, 1] and tiled to [1, length, 4]."""
    def scalar(v):
        return {"dtype": "i64", "shape": [], "data": v}

    return {"opset": OPSET, "inputs": {"x": {"dtype": "i64", "shape": f"[1, {length}]"}},
            "initializers": {"zero": scalar(0), "one": scalar(1),
                             "ax": {"dtype": "i64", "shape": [2], "data": [0, 2]},
                             "reps": {"dtype": "i64", "shape": [3], "data": [1, 1, 4]},
                             "table": {"dtype": "f32", "shape": [1, rows, 4],
                                       "data": np.zeros((1, rows, 4), np.float32).tolist()}},
            "nodes": [
                {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sx"]},
                {"name": "len", "op": "Gather", "inputs": ["sx", "one"], "outputs": ["n"]},
                {"name": "range", "op": "Range", "inputs": ["zero", "n", "one"],
                 "outputs": ["pos"]},
                {"name": "unsq", "op": "Unsqueeze", "inputs": ["pos", "ax"], "outputs": ["p3"]},
                {"name": "tile", "op": "Tile", "inputs": ["p3", "reps"], "outputs": ["ids"]},
                {"name": "rot", "op": "GatherElements", "inputs": ["table", "ids"],
                 "outputs": ["y"], "attrs": {"axis": 1}}]}


def test_positions_of_the_sequence_bound_it_by_the_table():
    # onnxruntime fails past the table's 64 positions at s = 65
    from shape_logic import solve
    from shape_logic.executor import ExecutionError, run

    sol = solve(_rotary_table(64))
    assert sol.status == "ok" and sol.ranges == {"s": [1, 64]} and sol.shape("y") == "[1, s, 4]"
    # 100 positions (too many to list their values) into 64 rows: index 99 out of range
    sol = solve(_rotary_table(64, length="100"))
    assert sol.status == "error"
    assert "99" in sol.diagnostics[0].message and "64" in sol.diagnostics[0].message
    assert solve(_rotary_table(100, length="100")).status == "ok"
    g = _rotary_table(64)
    assert run(g, {"x": np.zeros((1, 64), np.int64)})["y"].shape == (1, 64, 4)
    with pytest.raises(ExecutionError, match=r"the graph requires s in 1\.\.64"):
        run(g, {"x": np.zeros((1, 65), np.int64)})
