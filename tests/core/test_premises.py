"""What the fast mode takes as known while grounding is held to the answer set
(shape_logic/asp/premises.py): a binding made from a rule body that the solver finally
finds false is distrusted, and the graph solved again without it."""
from clingo import Number, String

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


def test_the_solve_again_distrusts_the_equations_found_false(tmp_path):
    (tmp_path / "Guess.lp").write_text(GUESS)
    problem = Problem.load(guess_graph(), [str(tmp_path)])
    atoms, funcs = problem.fast_answer()
    # a = 7, and the equations of w's size it made (14 = a + 7, 2*a = a + 7...)
    assert ("eqn", Number(7), String("a")) in problem.distrust
    assert {k[0] for k in problem.distrust} == {"eqn"}
    assert "a" not in funcs.known and not funcs.broken


def test_a_binding_whose_equation_holds_needs_no_second_solve(tmp_path):
    # the same rule file where nothing gives y the size 7: y is x, and w's size 2*a
    (tmp_path / "Guess.lp").write_text(GUESS)
    g = guess_graph()
    g["outputs"] = {"z": {"dtype": "f32", "shape": "[b]"}}
    problem = Problem.load(g, [str(tmp_path)])
    atoms, funcs = problem.fast_answer()
    assert problem.distrust == frozenset() and funcs.known.get("b") is not None
    sol = solve(g, rules=[str(tmp_path)])
    assert sol.shape("z") == "[a]" and sol.shape("w") == "[2*a]"


def test_an_equation_the_solver_decides_is_checked_and_holds():
    # encodings/sequences.lp gives a sequence what all its elements have through an
    # aggregate over what the rules derive: the grounder leaves it to the solver, so the
    # equation n = m that ConcatFromSequence's axis 0 makes from it is no fact when the
    # binding is made. It is doubtful, looked up in the answer set, and holds.
    from shape_logic.asp.premises import doubtful
    from shape_logic.limits import budget

    g = {"inputs": {"e0": {"dtype": "f32", "shape": "[n, 3]"},
                    "e1": {"dtype": "f32", "shape": "[m, 3]"}},
         "nodes": [{"op": "SequenceConstruct", "inputs": ["e0", "e1"], "outputs": ["s"]},
                   {"op": "ConcatFromSequence", "inputs": ["s"], "outputs": ["c"],
                    "attrs": {"axis": 1}}]}
    with budget(None):
        problem = Problem.load(g)
        ctl, funcs = problem.control("", sourced=False)
        assert [k for k, _ in doubtful(funcs.premises, ctl)] == [
            ("eqn", String("m"), String("n"))]
        atoms, funcs = problem.fast_answer()
    assert problem.distrust == frozenset() and not funcs.broken
    sol = solve(g)
    assert sol.shape("c") == "[m, 6]" and sol.bindings == {"n": "m"}
