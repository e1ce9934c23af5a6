"""Ambiguity as answer sets (encodings/alternatives.lp): [n] + [m] is n = m, n = 1 or m = 1."""
import shape_logic


def add(a, b, extra_nodes=(), inits=None, outputs=None):
    g = {"inputs": {"a": {"dtype": "f32", "shape": a}, "b": {"dtype": "f32", "shape": b}},
         "nodes": [{"op": "Add", "inputs": ["a", "b"], "outputs": ["y"]}, *extra_nodes]}
    if inits:
        g["initializers"] = inits
    if outputs:
        g["outputs"] = outputs
    return shape_logic.solve(g)


def test_open_broadcast_lists_its_cases():
    sol = add("[n]", "[m]")
    assert sol.shape("y") == "[max(m, n)]"  # what holds in every case
    out = sol.to_json()
    assert sorted(map(str, out["cases"])) == sorted(map(str, [{"m": 1}, {"n": "m"}, {"n": 1}]))
    assert set(out["alternatives"]["y"]) == {"[n]", "[m]"}
    assert set(out["alternatives"]["a"]) == {"[n]", "[m]", "[1]"}
    assert "alternatives_capped" not in out


def test_cases_follow_the_rest_of_the_graph():
    # y + [1] annotated [5]: max(m, n) = 5, so each case fixes the sizes
    sol = add("[n]", "[m]", [{"op": "Add", "inputs": ["y", "c"], "outputs": ["z"]}],
              {"c": {"dtype": "f32", "shape": [1], "data": [1.0]}}, {"z": {"shape": "[5]"}})
    assert sol.shape("y") == "[5]" and sol.constraints == ["max(m, n) = 5"]
    assert sorted(map(str, sol.cases)) == sorted(map(str, [
        {"m": 5, "n": 5}, {"m": 1, "n": 5}, {"m": 5, "n": 1}]))
    assert set(sol.alternatives["a"]) == {"[5]", "[1]"}


def test_no_alternatives_when_nothing_is_open():
    for a, b in (("[n]", "[1]"), ("[n]", "[n]"), ("[3]", "[m]")):
        out = add(a, b).to_json()
        assert "alternatives" not in out and "cases" not in out


def test_text_lists_the_cases():
    text = add("[n]", "[m]").to_text()
    assert "cases: " in text and "alternatives: y:" in text


def test_matmul_with_an_operand_of_unknown_rank():
    # x may be a vector (y: [n]) or a stack of matrices (y: ...@[_, n])
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32"}, "w": {"dtype": "f32", "shape": "[k, n]"}},
        "nodes": [{"op": "MatMul", "inputs": ["x", "w"], "outputs": ["y"]}]})
    assert sol.shape("y").startswith("_")  # nothing fixed is claimed
    alts = sol.alternatives["y"]
    assert "[n]" in alts and any(a.endswith(", n]") and "@" in a for a in alts)
    assert "[k]" in sol.alternatives["x"]


def test_cases_past_their_time_are_given_up_and_said_so():
    """The cases' grounding gets a few times the graph's own solve (alternatives_seconds):
    past it the solution says "alternatives capped" instead of going on (a control-flow
    fuzz graph took 36 s for its cases after a solve of 1.1 s)."""
    from shape_logic.alternatives import alternatives_seconds, enumerate_alternatives
    from shape_logic.solver import Problem

    g = {"inputs": {"a": {"dtype": "f32", "shape": "[n]"}, "b": {"dtype": "f32", "shape": "[m]"}},
         "nodes": [{"op": "Add", "inputs": ["a", "b"], "outputs": ["y"]}]}
    assert enumerate_alternatives(Problem.load(g), seconds=0) == ({}, [], True)
    alternatives, cases, capped = enumerate_alternatives(Problem.load(g), seconds=60)
    assert set(alternatives["y"]) == {"[n]", "[m]"} and len(cases) == 3 and not capped
    assert alternatives_seconds(0.01) == 1.0 and alternatives_seconds(2.0) == 10.0
    assert alternatives_seconds(26.0) == 30.0  # (a cap: they are an extra)


def test_a_symbol_the_graph_binds_opens_no_case():
    # Concat binds m = n whatever the case: the broadcast x + y is not open, and only
    # p + q's three cases are listed (not three more where n = m = 1, which only
    # specialize the answer: an exporter's name for the batch gave a case batch = 1)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n, 2]"},
                    "y": {"dtype": "f32", "shape": "[m, 2]"},
                    "p": {"dtype": "f32", "shape": "[k]"}, "q": {"dtype": "f32", "shape": "[j]"}},
         "nodes": [{"op": "Concat", "inputs": ["x", "y"], "outputs": ["c"], "attrs": {"axis": 1}},
                   {"op": "Add", "inputs": ["x", "y"], "outputs": ["s"]},
                   {"op": "Add", "inputs": ["p", "q"], "outputs": ["r"]}]}
    sol = shape_logic.solve(g)
    assert sol.shape("s") == "[m, 2]" and sol.shape("r") == "[max(j, k)]"
    assert set(sol.alternatives) == {"p", "q", "r"}
    assert sorted(map(str, sol.cases)) == sorted(map(str, [
        {"j": 1, "n": "m"}, {"k": 1, "n": "m"}, {"k": "j", "n": "m"}]))


def test_a_clamp_is_not_an_open_broadcast():
    # Range(0, b - 2) has max(0, b - 2) elements: one value and an integer, no case to
    # enumerate (the enumeration is not even run)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 4]"}},
         "initializers": {"zero": {"dtype": "i64", "shape": [], "data": 0},
                          "one": {"dtype": "i64", "shape": [], "data": 1},
                          "two": {"dtype": "i64", "shape": [], "data": 2}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"], "attrs": {"end": 1}},
                   {"op": "Squeeze", "inputs": ["sh"], "outputs": ["n"]},
                   {"op": "Sub", "inputs": ["n", "two"], "outputs": ["lim"]},
                   {"op": "Range", "inputs": ["zero", "lim", "one"], "outputs": ["r"]}]}
    sol = shape_logic.solve(g)
    assert sol.shape("r") == "[max(0, b - 2)]"
    assert "alternatives" not in sol.timings and not sol.alternatives and not sol.cases
