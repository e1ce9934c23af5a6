"""Findings of the control-flow fuzzer (bench/fuzz.py --kind control), shrunk."""
import numpy as np
import pytest

from shape_logic import run, solve

ONE = {"dtype": "i64", "shape": [1], "data": [1]}


def squeeze_if(test: str, k: int, x: str = "[b, s, 3]", negate: bool = False) -> dict:
    """If(test(x.shape[1], k), Squeeze(x, 1), Identity(x)), the condition maybe negated
    (Not): onnx's export of `x.squeeze(1)` with another comparison than Equal."""
    nodes = [{"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
             {"name": "at1", "op": "Gather", "inputs": ["sh", "one"], "outputs": ["d"]},
             {"name": "test", "op": test, "inputs": ["d", "k"], "outputs": ["c"]}]
    if negate:
        nodes.append({"name": "not", "op": "Not", "inputs": ["c"], "outputs": ["nc"]})
    nodes.append({"name": "if", "op": "If", "inputs": ["nc" if negate else "c"],
                  "outputs": ["y"], "attrs": {
                      "then_branch": {"inputs": [], "outputs": ["t"], "nodes": [
                          {"op": "Squeeze", "inputs": ["x", "one1"], "outputs": ["t"]}]},
                      "else_branch": {"inputs": [], "outputs": ["x"], "nodes": []}}})
    return {"opset": 13, "inputs": {"x": {"dtype": "f32", "shape": x}},
            "initializers": {"one": {"dtype": "i64", "shape": [], "data": 1}, "one1": ONE,
                             "k": {"dtype": "i64", "shape": [], "data": k}},
            "nodes": nodes}


# (comparison of axis 1 with k, axis 1 as declared) -> the branch taken: a comparison the
# values decide picks it (Less, LessOrEqual, Greater, GreaterOrEqual gave no value: the If
# was left open, and a taken branch that cannot run was only a warning, fuzz seed 1)
PICKED = {
    ("LessOrEqual", 1, "[b, 1, 3]"): "[b, 3]",
    ("Less", 2, "[b, 1, 3]"): "[b, 3]",
    ("GreaterOrEqual", 1, "[b, 1, 3]"): "[b, 3]",
    ("Greater", 1, "[b, 1, 3]"): "[b, 1, 3]",
    ("Less", 1, "[b, 5, 3]"): "[b, 5, 3]",
    ("Greater", 5, "[b, 5, 3]"): "[b, 5, 3]",
    # a symbol is >= 1: s < 1 is false, s >= 1 true (then the Squeeze runs: s is 1)
    ("Less", 1, "[b, s, 3]"): "[b, s, 3]",
    ("GreaterOrEqual", 1, "[b, s, 3]"): "[b, 3]",
}


@pytest.mark.parametrize("case", PICKED, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_a_computed_comparison_picks_the_branch(case):
    test, k, x = case
    g = squeeze_if(test, k, x)
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == PICKED[case]
    shape = [4 if d == "b" else 1 if d == "s" else int(d) for d in x.strip("[]").split(", ")]
    want = run(g, {"x": np.ones(shape, np.float32)})["y"].shape
    assert len(want) == len(sol.dims("y"))


def test_an_undecided_comparison_picks_nothing():
    # s > 1 may be either: the branches' ranks differ, so y is left open
    sol = solve(squeeze_if("Greater", 1, "[b, s, 3]"))
    assert sol.status == "ok" and sol.dims("y") is None and sol.bindings == {}


def test_a_negated_test_picks_the_other_branch():
    sol = solve(squeeze_if("Equal", 1, "[b, 1, 3]", negate=True))
    assert sol.shape("y") == "[b, 1, 3]" and not sol.warnings
    sol = solve(squeeze_if("Less", 1, "[b, 1, 3]", negate=True))  # not (1 < 1)
    assert sol.shape("y") == "[b, 3]" and not sol.warnings


def test_a_taken_branch_that_cannot_run_is_an_error():
    # fuzz seed 1, graph 121 (shrunk): x.shape[1] <= 3 holds, the then-branch squeezes
    # axis 1, which is 5 - the executor fails, and so must the solver (it said ok, with a
    # warning for the branch it could not know was taken)
    g = squeeze_if("LessOrEqual", 5, "[2, 5, 3]")
    sol = solve(g)
    assert sol.status == "error"
    with pytest.raises(Exception):
        run(g, {"x": np.ones((2, 5, 3), np.float32)})


def test_a_branch_that_gives_a_tensor_around_it_as_it_is_runs():
    # no node in the else-branch: its output is x itself. The executor took only the names
    # the body's nodes read as the tensors around it, and refused the branch ("tensor 'x'
    # is not defined"), so the fuzzer dropped every such graph
    g = squeeze_if("Equal", 1, "[b, s, 3]")
    assert run(g, {"x": np.ones((2, 5, 3), np.float32)})["y"].shape == (2, 5, 3)
    assert run(g, {"x": np.ones((2, 1, 3), np.float32)})["y"].shape == (2, 3)


def test_a_place_a_rule_file_makes_for_a_body_node_is_the_body_s():
    """@in_body (encodings/scopes.lp): a virtual tensor naming a body's node (Expand's
    target(N)) is the body's; a tensor's name is left to in_scope, even if it spells a
    body node's name."""
    import clingo

    from shape_logic.asp.functions import Functions

    node = "If_0/then_branch/Expand_0"
    f = Functions(lambda s: s, body_nodes=frozenset({node}))
    assert f.in_body(clingo.Function("target", [clingo.String(node)])).number == 1
    assert f.in_body(clingo.Function("batch", [clingo.String("mm"), clingo.String("a")])) \
        .number == 0
    assert f.in_body(clingo.String(node)).number == 0


def test_a_carried_value_expanded_in_a_loop_body_aligns_from_the_right():
    """A Loop's carried value has no declared shape in its body, so it is known by rows
    (rows.lp) as well: dim(v, -1, 7) beside dim(v, 3, 7). Expand.lp's broadcast check read
    axis -1 as an axis from the front, against the shape's value at 5 - 4 - 1 = 0, and
    called [1, 2, 6, 7] against [4, 1, 2, 6, 7] '7 and 4 do not broadcast' (fuzz --kind
    control --seed 4716, graph 446): the graph runs."""
    body = {"inputs": ["i", "cond", "v"], "outputs": ["c", "v2", "e"], "nodes": [
        {"name": "keep", "op": "Identity", "inputs": ["cond"], "outputs": ["c"]},
        {"name": "act", "op": "Relu", "inputs": ["v"], "outputs": ["v2"]},
        {"name": "expand", "op": "Expand", "inputs": ["v", "to"], "outputs": ["e"]}],
        "initializers": {"to": {"dtype": "i64", "shape": [5], "data": [4, 1, 2, 6, 7]}}}
    g = {"opset": 18, "inputs": {"x": {"dtype": "f32", "shape": [1, 2, 6, 7]}},
         "initializers": {"n": {"dtype": "i64", "shape": [], "data": 2}},
         "nodes": [{"name": "loop", "op": "Loop", "inputs": ["n", "", "x"],
                    "outputs": ["y", "ys"], "attrs": {"body": body}}]}
    sol = solve(g)
    assert sol.status == "ok", [d.message for d in sol.diagnostics]
    assert sol.shape("y") == "[1, 2, 6, 7]"
    assert sol.shape("ys") == "[2, 4, 1, 2, 6, 7]"
    out = run(g, {"x": np.ones((1, 2, 6, 7), np.float32)})
    assert out["ys"].shape == (2, 4, 1, 2, 6, 7)
