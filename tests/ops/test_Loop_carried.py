"""Loop: carried values that keep their sizes only together (rules/Loop.lp's loop_hyp),
as torch.jit.script's greedy decoding carries the state h and the token tok."""
import numpy as np
import pytest

from shape_logic import run, solve


def greedy(h0: str, tok0: str, grow: bool = False) -> dict:
    """h' = tanh(h + emb[tok]), tok' = argmax(h' W) (bench/zoo_scripted.py's Greedy): h' has
    b only if tok has it, and tok' only if h' has it. With `grow`, a third carried value
    grows by a row per iteration."""
    nodes = [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]},
             {"op": "Gather", "inputs": ["emb", "tok"], "outputs": ["e"]},
             {"op": "Add", "inputs": ["h", "e"], "outputs": ["a"]},
             {"op": "Tanh", "inputs": ["a"], "outputs": ["h2"]},
             {"op": "Gemm", "inputs": ["h2", "w"], "outputs": ["g"]},
             {"op": "ArgMax", "inputs": ["g"], "outputs": ["tok2"],
              "attrs": {"axis": 1, "keepdims": 0}}]
    inputs, outputs, loop_in, loop_out = ["i", "c", "h", "tok"], ["c2", "h2", "tok2"], \
        ["m", "", "h0", "tok0"], ["h", "tok"]
    if grow:
        nodes.append({"op": "Concat", "inputs": ["acc", "row"], "outputs": ["acc2"],
                      "attrs": {"axis": 0}})
        inputs, outputs, loop_in, loop_out = (inputs + ["acc"], outputs + ["acc2"],
                                              loop_in + ["acc0"], loop_out + ["acc"])
    body = {"inputs": inputs, "outputs": outputs + ["tok2"], "nodes": nodes}
    g = {"opset": 13,
         "inputs": {"h0": {"dtype": "f32", "shape": h0}, "tok0": {"dtype": "i64", "shape": tok0},
                    "m": {"dtype": "i64", "shape": "[]"}},
         "initializers": {"emb": {"dtype": "f32", "shape": [12, 4], "data": [[0.1] * 4] * 12},
                          "w": {"dtype": "f32", "shape": [4, 12],
                                "data": [[0.01 * k for k in range(12)]] * 4},
                          "row": {"dtype": "f32", "shape": [1, 2], "data": [[1.0, 2.0]]}},
         "nodes": [{"name": "loop", "op": "Loop", "inputs": loop_in,
                    "outputs": loop_out + ["toks"], "attrs": {"body": body}}]}
    if grow:
        g["inputs"]["acc0"] = {"dtype": "f32", "shape": "[s, 2]"}
    return g


@pytest.mark.parametrize("h0, tok0, grow, want", [
    # both start with b: each keeps it given the other, so both do
    ("[b, 4]", "[b]", False, ("[b, 4]", "[b]", "[_1, b]")),
    # they start apart (c with b broadcasts to either, or fails): open
    ("[b, 4]", "[c]", False, ("[_1, 4]", "[_2]", "[_3, _4]")),
    # a carried value beside them changes its size: Loop.lp's suppositions are all or
    # none, but the induction of loop_induction.py leaves the growing one out and proves
    # the two (their body gives them b whatever its shape)
    ("[b, 4]", "[b]", True, ("[b, 4]", "[b]", "[_2, b]"))])
def test_carried_values_that_keep_a_size_together(h0, tok0, grow, want):
    g = greedy(h0, tok0, grow)
    sol = solve(g)
    assert sol.status == "ok"
    assert (sol.shape("h"), sol.shape("tok"), sol.shape("toks")) == want
    if want[1] == "[b]":  # every iteration's input has b too
        assert (sol.shape("loop/h"), sol.shape("loop/tok")) == ("[b, 4]", "[b]")
    b, c = 3, (3 if tok0 == "[b]" else 1)
    for trip in (1, 3):  # the executor checks every tensor against the inference
        feeds = {"h0": np.ones((b, 4), np.float32), "tok0": np.zeros(c, np.int64),
                 "m": np.array(trip, np.int64)}
        if grow:
            feeds["acc0"] = np.ones((2, 2), np.float32)
        out = run(g, feeds)
        assert out["h"].shape == (3, 4) and out["toks"].shape == (trip, 3)


def carrying(initial: list[dict], m: int | None, cond: bool | None, then: list[dict],
             passes: bool = True) -> dict:
    """A Loop carrying `v0` (made by the `initial` nodes) with trip count m and condition
    cond (None: not given), its body passing it on through an Identity (`passes`) or
    making a new empty optional, and `then` nodes reading its final value `v`."""
    body = [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]},
            {"op": "Identity", "inputs": ["v_in"], "outputs": ["v_out"]} if passes else
            {"op": "Optional", "outputs": ["v_out"], "attrs": {"type": {"dtype": "f32"}}}]
    inits = {"one": {"dtype": "i64", "data": 1}}
    if m is not None:
        inits["m"] = {"dtype": "i64", "data": m}
    if cond is not None:
        inits["cond"] = {"dtype": "bool", "data": cond}
    return {"inputs": {"x": {"dtype": "f32", "shape": "[n, 3]"}}, "initializers": inits,
            "nodes": initial + [
                {"op": "Loop", "inputs": ["" if m is None else "m",
                                          "" if cond is None else "cond", "v0"],
                 "outputs": ["v"], "attrs": {"body": {
                     "inputs": ["i", "c", "v_in"], "outputs": ["c2", "v_out"],
                     "nodes": body}}}] + then}


EMPTY = [{"op": "Optional", "outputs": ["v0"], "attrs": {"type": {"dtype": "f32"}}}]
HOLDING = [{"op": "Optional", "inputs": ["x"], "outputs": ["v0"]}]
GET = [{"name": "get", "op": "OptionalGetElement", "inputs": ["v"], "outputs": ["y"]}]


@pytest.mark.parametrize("m, cond", [(2, None), (3, True), (2, False), (0, True)])
def test_an_optional_passed_on_holds_what_it_held(m, cond):
    # fuzz --kind seq --seed 201 graphs 1937, 1704; seed 202 graphs 122, 1320: an empty
    # optional carried through an Identity is empty at the end, however many iterations
    sol = solve(carrying(EMPTY, m, cond, GET))
    assert sol.status == "error" and "empty" in sol.diagnostics[0].message
    sol = solve(carrying(HOLDING, m, cond, GET))
    assert sol.status == "ok" and sol.optional("v") == {"has_element": True}
    assert sol.shape("y") == "[n, 3]"
    out = run(carrying(HOLDING, m, cond, GET), {"x": np.ones((2, 3), np.float32)})
    assert out["y"].shape == (2, 3)


def test_an_optional_the_body_replaces_is_not_claimed():
    # emptied in the body: holds one after no iteration, none after one; unknown here
    sol = solve(carrying(HOLDING, 2, None, GET, passes=False))
    assert sol.status == "ok" and sol.optional("v")["has_element"] is None


@pytest.mark.parametrize("m, cond", [(2, False), (0, None), (-1, True)])
def test_a_loop_that_runs_no_iteration_keeps_what_it_carries(m, cond):
    # fuzz --kind seq --seed 201 graph 874: a condition false at the start runs no
    # iteration (as a trip count <= 0 does): a sequence ends as it began, of 0 elements,
    # where a body that inserts would have made 2; an optional holds what it held
    seq = [{"op": "SequenceEmpty", "outputs": ["v0"], "attrs": {"dtype": 1}}]
    at = [{"name": "at", "op": "SequenceAt", "inputs": ["v", "one"], "outputs": ["y"]}]
    g = carrying(seq, m, cond, at)
    g["nodes"][1]["attrs"]["body"]["nodes"][1] = {
        "op": "SequenceInsert", "inputs": ["v_in", "x"], "outputs": ["v_out"]}
    sol = solve(g)
    assert sol.status == "error" and sol.diagnostics[0].message.startswith('SequenceAt "at"')
    sol = solve(carrying(HOLDING, m, cond, GET, passes=False))  # (emptied in the body)
    assert sol.status == "ok" and sol.optional("v") == {"has_element": True}
    assert sol.shape("y") == "[n, 3]"
