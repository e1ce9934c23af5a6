"""Loop: carried values proven to keep their shape by induction (shape_logic/loop_induction.py):
the body, given an input of the initial value's shape, gives an output of that shape."""
import numpy as np
import pytest

from shape_logic import run, solve


def masked_cell(h0: str = "[b, 24]", w: list | None = None, then: list | None = None,
                keep_old: bool = True) -> dict:
    """tf2onnx's masked LSTM step, reduced: h' = where(mask_t, h W, h) as two products
    broadcast against the step's mask [b, 1] (x's step i, taken by Gather), and a counter;
    without `keep_old`, h' = mask_t * h W. `then` nodes read the final h (their output y)."""
    body = {"inputs": ["i", "c", "h"], "outputs": ["c2", "h2", "h2"],
            "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]},
                      {"op": "Gather", "inputs": ["mask", "i"], "outputs": ["m"]},
                      {"op": "MatMul", "inputs": ["h", "w"], "outputs": ["hw"]},
                      {"op": "Mul", "inputs": ["m", "hw"], "outputs": ["kept"]},
                      {"op": "Sub", "inputs": ["one", "m"], "outputs": ["notm"]},
                      {"op": "Mul", "inputs": ["h", "notm"], "outputs": ["old"]},
                      {"op": "Add", "inputs": ["kept", "old"], "outputs": ["h2"]}]}
    if not keep_old:
        body["nodes"][-3:] = [{"op": "Identity", "inputs": ["kept"], "outputs": ["h2"]}]
    w = w or [24, 24]
    return {"opset": 17,
            "inputs": {"h0": {"dtype": "f32", "shape": h0},
                       "mask": {"dtype": "f32", "shape": "[s, b, 1]"},
                       "m": {"dtype": "i64", "shape": "[]"}},
            "initializers": {"w": {"dtype": "f32", "shape": w, "data": 0.01},
                             "one": {"dtype": "f32", "shape": [], "data": 1.0},
                             "w2": {"dtype": "f32", "shape": [24, 3], "data": 0.1}},
            "nodes": [{"name": "loop", "op": "Loop", "inputs": ["m", "", "h0"],
                       "outputs": ["h", "hs"], "attrs": {"body": body}}] + (then or []),
            "outputs": {"h": {}, **({"y": {}} if then else {})}}


def feeds(b: int, n: int, trip: int) -> dict:
    return {"h0": np.ones((b, n), np.float32), "m": np.array(trip, np.int64),
            "mask": (np.arange(4 * b).reshape(4, b, 1) % 2).astype(np.float32)}


def test_a_masked_state_keeps_its_shape():
    # (no chain of equal shapes leads from h to h': a MatMul and two broadcasts)
    g = masked_cell()
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("h") == "[b, 24]" and sol.shape("loop/h") == "[b, 24]"
    assert sol.shape("hs") == "[_1, b, 24]"  # (m is data)
    for trip in (1, 3):  # the executor checks every tensor against the inference
        out = run(g, feeds(2, 24, trip))
        assert out["h"].shape == (2, 24)


def test_a_state_that_changes_its_size_is_left_open(monkeypatch):
    # h' = mask_t * h W for h [b, n] and W [n, 24]: [b, 24] after one iteration, kept
    # only if n = 24; the graph after the loop needs 24 (h W2), which a run of one
    # iteration meets whatever n is: neither invariance nor n = 24 may be claimed
    then = [{"op": "MatMul", "inputs": ["h", "w2"], "outputs": ["y"]}]
    g = masked_cell("[b, n]", [None, 24], then, keep_old=False)
    g["initializers"]["w"] = {"dtype": "f32", "shape": "[n, 24]"}
    g["inputs"]["w"] = g["initializers"].pop("w")
    from shape_logic import loop_induction

    trials, trial = [], loop_induction._trial
    monkeypatch.setattr(loop_induction, "_trial", lambda *a: trials.append(a[2]) or trial(*a))
    sol = solve(g)
    assert trials == [[("kept", 2)]]  # (none held: no trial of nothing after it)
    assert sol.status == "ok"
    assert sol.bindings == {} and sol.ranges == {} and not sol.constraints
    assert sol.shape("y") != "[b, 3]" or sol.shape("h") != "[b, n]"
    assert "n" not in sol.shape("h")
    for n in (5, 24):  # the executor checks every tensor against the inference
        f = feeds(2, n, 1)
        f["w"] = np.ones((n, 24), np.float32)
        assert run(g, f)["y"].shape == (2, 3)


@pytest.mark.parametrize("trip", [1, 2])
def test_a_state_of_its_own_size_is_proven_with_the_weight(trip):
    # the same with n = 24 given by the weight: invariant, and the graph after it sized
    then = [{"op": "MatMul", "inputs": ["h", "w2"], "outputs": ["y"]}]
    g = masked_cell("[b, 24]", [24, 24], then)
    sol = solve(g)
    assert sol.shape("y") == "[b, 3]"
    assert run(g, feeds(3, 24, trip))["y"].shape == (3, 3)
