"""A rule file that builds on another's rules (`% uses: Conv`) is solved with that file
loaded too (rule_selection.select_rules), whether or not the graph has the other operator."""
import pytest

from shape_logic.asp.program import available_ops, load_rule_file
from shape_logic.errors import InputError
from shape_logic.solver import solve

HALVE = 'halve(N, X, Y) :- op(N, "Halve"), input(N, 0, X), output(N, 0, Y).\n' \
        'same_rank(X, Y) :- halve(N, X, Y).\n' \
        'dim(Y, I, @div(D, 2)) :- halve(N, X, Y), dim(X, I, D).\n'
TWICE = '%*! Twice(X) -> Y: Halve\'s shapes. *%\n% uses: Halve\n' \
        'halve(N, X, Y) :- op(N, "Twice"), input(N, 0, X), output(N, 0, Y).\n'


def graph(op):
    return {"inputs": {"x": {"dtype": "f32", "shape": "[8, 6]"}},
            "nodes": [{"name": "t", "op": op, "inputs": ["x"], "outputs": ["y"]}]}


def test_a_used_file_is_loaded_for_the_operator_that_uses_it(tmp_path):
    (tmp_path / "Halve.lp").write_text(HALVE)
    (tmp_path / "Twice.lp").write_text(TWICE)
    sol = solve(graph("Twice"), rules=[tmp_path])
    assert sol.status == "ok" and sol.shape("y") == "[4, 3]"


def test_a_used_operator_without_a_rule_file_is_bad_input(tmp_path):
    (tmp_path / "Twice.lp").write_text(TWICE)
    with pytest.raises(InputError, match="uses operator 'Halve', which has no rule file"):
        solve(graph("Twice"), rules=[tmp_path])


def test_our_files_use_files_that_exist():
    ops = available_ops()
    users = {op: load_rule_file(op, path).uses for op, path in ops.items()}
    assert users["QLinearConv"] == ("Conv",) and users["MatMulInteger"] == ("MatMul",)
    assert all(u in ops for uses in users.values() for u in uses)
