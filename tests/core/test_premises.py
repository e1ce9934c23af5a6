"""What the fast mode takes as known while grounding is held to the answer set
(shape_logic/asp/premises.py): a binding made from a rule body that the solver finally
finds false is distrusted, and the graph solved again without it."""
from shape_logic.solver import Problem, solve

# A user's operator whose rule negates what the rules derive: Y is X unless something
# says Y's size is 7. The grounder meets `not dim(y, 0, 7)` before the declared output,
# three Relus later, gives y that size, so it takes y = x as possible: the clash of y's
# a with 7 binds a = 7 while grounding. The solver then finds dim(y, 0, a) false.
GUESS = """% Guess: Y is X, unless something downstream says Y's size is 7
arity("Guess", 1, 1).
same_rank(X, Y) :- op(N, "Guess"), input(N, 0, X), output(N, 0, Y).
same_dtype(X, Y) :- op(N, "Guess"), input(N, 0, X), output(N, 0, Y).
dim(Y, 0, E) :- op(N, "Guess"), input(N, 0, X), output(N, 0, Y), dim(X, 0, E),
    not dim(Y, 0, 7).
"""


def relus(first: str, last: str, count: int, prefix: str) -> list:
    names = [first] + [f"{prefix}{k}" for k in range(1, count)] + [last]
    return [{"op": "Relu", "inputs": [a], "outputs": [b]} for a, b in zip(names, names[1:])]


def guess_graph() -> dict:
    # w = Concat(x after five Relus, x): computed after the binding, with it: [14]
    return {"inputs": {"x": {"dtype": "f32", "shape": "[a]"}},
            "nodes": [{"op": "Guess", "inputs": ["x"], "outputs": ["y"]}]
            + relus("y", "z", 3, "z") + relus("x", "r", 5, "r")
            + [{"op": "Concat", "inputs": ["r", "x"], "outputs": ["w"], "attrs": {"axis": 0}}],
            "outputs": {"z": {"dtype": "f32", "shape": "[7]"}}}


def test_a_binding_from_a_rule_body_found_false_is_not_computed_with(tmp_path):
    (tmp_path / "Guess.lp").write_text(GUESS)
    sol = solve(guess_graph(), rules=[str(tmp_path)])
    assert sol.status == "ok"
    assert sol.shape("x") == "[a]" and sol.shape("y") == "[7]"
    # (before: w = [14], the a = 7 that no run has)
    assert sol.shape("w") == "[2*a]" and sol.shape("r") == "[a]"
    assert sol.bindings == {}


def test_the_solve_again_does_without_the_binding_taken_too_early(tmp_path):
    (tmp_path / "Guess.lp").write_text(GUESS)
    problem = Problem.load(guess_graph(), [str(tmp_path)])
    atoms, funcs = problem.fast_answer()
    # a = 7 (the symbol is not substituted again: the equation may come back spelled
    # otherwise, 14 = 2*a, once w's size is computed without it)
    assert problem.distrust == {("bind", "a")}
    assert "a" not in funcs.known


def test_a_binding_from_a_body_the_grounder_left_open_is_not_computed_with(tmp_path):
    # the same rule file where nothing gives y the size 7: `not dim(y, 0, 7)` stays for
    # the solver to decide, so y's size a is no fact, nor the equation b = a the declared
    # output makes of it: the arithmetic goes without it, the answer set still has it
    (tmp_path / "Guess.lp").write_text(GUESS)
    g = guess_graph()
    g["outputs"] = {"z": {"dtype": "f32", "shape": "[b]"}}
    problem = Problem.load(g, [str(tmp_path)])
    atoms, funcs = problem.fast_answer()
    assert problem.distrust == {("bind", "b")} and "b" not in funcs.known
    sol = solve(g, rules=[str(tmp_path)])
    assert sol.shape("z") == "[a]" and sol.shape("w") == "[2*a]"
    assert sol.bindings == {"b": "a"}


def test_a_binding_that_made_its_own_equation_a_fact_is_found():
    # Loop.lp before stop 28 (tests/core/data/loop_counted): an aggregate over its own
    # recursive component let a Loop's suppositions pass while grounding; what followed
    # bound s1 = 1, and the size 1 it gave a carried value made the equation s1 = 1 a
    # fact by the end. When it was taken, it was none: the solve again goes without it.
    import json
    from pathlib import Path

    here = Path(__file__).parent
    case = json.loads((here.parent / "reliability" / "fuzz_regressions"
                       / "loop_supposition_counted_while_grounding.json").read_text())
    sol = solve(case["graph"], rules=[str(here / "data" / "loop_counted")], timeout=60)
    assert sol.status == "ok" and sol.bindings == {"s0": 1}
    assert sol.shape("x0") == "[1, s1, s2, 1]" and sol.shape("t8_1") == "[1, s1, s2, 1]"


def test_our_sequence_rules_leave_nothing_for_the_solver():
    # encodings/sequences.lp gives a sequence what all its elements have by Horn chains
    # over its positions: the grounder decides every atom, the solve is not watched, and
    # the equation n = m that ConcatFromSequence's axis 1 makes is a fact
    from shape_logic.asp.premises import determinate, nonmonotone
    from shape_logic.limits import budget

    g = {"inputs": {"e0": {"dtype": "f32", "shape": "[n, 3]"},
                    "e1": {"dtype": "f32", "shape": "[m, 3]"}},
         "nodes": [{"op": "SequenceConstruct", "inputs": ["e0", "e1"], "outputs": ["s"]},
                   {"op": "ConcatFromSequence", "inputs": ["s"], "outputs": ["c"],
                    "attrs": {"axis": 1}}]}
    with budget(None):
        problem = Problem.load(g)
        assert not nonmonotone(problem.rule_files)
        ctl, funcs = problem.control("", sourced=False)
        ctl.solve()
        assert determinate(ctl) and {s: str(e) for s, e in funcs.known.items()} == {"n": "m"}
    sol = solve(g)
    assert sol.shape("c") == "[m, 6]" and sol.bindings == {"n": "m"}
