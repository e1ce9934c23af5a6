"""No shipped rule bounds a variable on both sides by integers far apart (RULES.md, "Two
bounds of one variable"): clingo makes a range literal of such a pair, which a rule outside
a recursive component enumerates value by value (`E > -4194304, E < 4194304` grounded
alone: ~250 ms). One of the two bounds written as a tuple, `(K, 0) >= (-32767, 0)`, means
the same and makes none. `bench/rule_ranking.py --all` times each rule on no facts."""
import clingo
import clingo.ast as ast

from shape_logic.asp.wide_bounds import wide_bound_notes, wide_intervals
from tests.core.test_determinate import our_rules

T = ast.ASTType


def _rule(text: str):
    rules: list = []
    ast.parse_string(text, lambda s: s.ast_type == T.Rule and rules.append(s))
    return rules[0]


def test_the_scan_sees_two_plain_bounds_and_not_a_tuple():
    assert wide_intervals(_rule("p(K) :- q(K), -32767 <= K, K <= 32767.")) == \
        [("K", -32767, 32767)]
    assert wide_intervals(_rule("p(E) :- q(E), E > -4194304, r(E), E < 4194304.")) == \
        [("E", -4194304, 4194304)]
    assert wide_intervals(_rule("p(K) :- q(K), -32767 <= K <= 32767.")) == \
        [("K", -32767, 32767)]
    assert wide_intervals(_rule("p(K) :- q(K), (K, 0) >= (-32767, 0), K <= 32767.")) == []
    assert wide_intervals(_rule("p(K) :- q(K), K >= -10, K < 0.")) == []  # narrow


def test_no_shipped_rule_bounds_a_variable_on_both_sides_far_apart():
    found = [(name, rule.location.begin.line, wide)
             for name, rule in our_rules() if (wide := wide_intervals(rule))]
    assert found == []


def test_a_tuple_bound_means_the_plain_one():
    """(K, 0) >= (c, 0) holds exactly when K >= c, for integers and for every other term
    (clingo compares tuples by their first element first)."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], """t(-3;-2;-1;0;1;"s";f(1);real("2.5")).
        plain(K) :- t(K), K >= -2.
        tuple(K) :- t(K), (K, 0) >= (-2, 0).""")
    ctl.ground([("base", [])])
    atoms = {(a.symbol.name, str(a.symbol.arguments[0])) for a in ctl.symbolic_atoms
             if a.symbol.name in ("plain", "tuple")}
    plain = {v for p, v in atoms if p == "plain"}
    assert plain == {v for p, v in atoms if p == "tuple"}
    assert {"-2", "1", '"s"', "f(1)"} <= plain and "-3" not in plain


def test_test_rule_notes_them_in_a_users_file():
    text = "p(K) :- q(K),\n    -32767 <= K, K <= 32767.\nr(K) :- q(K), K >= 0, K < 1073741824.\n"
    notes = wide_bound_notes(text, "myrules/Op.lp")
    assert len(notes) == 1
    assert notes[0].startswith("myrules/Op.lp:1: K is bounded on both sides (-32767 .. 32767)")
    assert "(K, 0) >= (-32767, 0)" in notes[0]


def test_the_test_rule_command_prints_the_note_and_still_runs_the_cases(tmp_path):
    from tests.core.test_cli import cli

    rule = tmp_path / "Clamp7.lp"
    rule.write_text('clamp7(N, X, Y) :- op(N, "Clamp7"), input(N, 0, X), output(N, 0, Y).\n'
                    "rank(Y, R) :- clamp7(N, X, Y), rank(X, R).\n"
                    "dtype(Y, T) :- clamp7(N, X, Y), dtype(X, T).\n"
                    "dim(Y, I, E) :- clamp7(N, X, Y), dim(X, I, E), -32767 <= E, E <= 32767.\n")
    r = cli("test-rule", rule, "--case", "[2, 7]")
    assert r.returncode == 0
    assert r.stdout.startswith(f"note: {rule}:4: E is bounded on both sides (-32767 .. 32767)")
    assert "ok    [2, 7] -> [2, 7]" in r.stdout
