"""Rules that cannot fire on a graph are not given to clingo (shape_logic/asp/relevance.py):
the selection keeps every rule that can fire, and the answers are the ones the whole
program gives."""
from pathlib import Path

import clingo
import clingo.ast
import pytest

import shape_logic.asp.program as program
from shape_logic import solve
from shape_logic.asp.relevance import select, statement_uses

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def parsed(text: str) -> tuple:
    out: list = []
    clingo.ast.parse_string(text, out.append)
    return tuple(s for s in out if s.ast_type != clingo.ast.ASTType.Comment)


def kept(rules: str, facts: str, extra: str = "") -> list[str]:
    statements = parsed(rules)
    chosen = select([(statements, statement_uses(statements))], facts, extra)
    return [str(s) for s in chosen if s.ast_type == clingo.ast.ASTType.Rule]


RULES = """
b(X) :- a(X).
c(X) :- b(X), not d(X).
e(X) :- zz(X).
f(X) :- e(X).
g(X) :- f(X), a(X).
"""


def test_a_rule_waits_for_what_the_facts_or_kept_rules_give():
    rules = kept(RULES, 'a(1).\na(2).\n')
    assert rules == ["b(X) :- a(X).", "c(X) :- b(X); not d(X)."]


def test_a_fact_after_another_on_the_same_line_counts():
    rules = kept(RULES, 'a(1). zz(2).\n')
    assert "f(X) :- e(X)." in rules and "g(X) :- f(X); a(X)." in rules


def test_a_name_of_the_extra_program_counts():
    rules = kept(RULES, "a(1).\n", extra="#external zz(X) : a(X).")
    assert "e(X) :- zz(X)." in rules


def test_conditions_and_aggregates_do_not_require_an_atom():
    text = """
    h(X) :- a(X), q(Y) : zz(Y).
    k(X) :- a(X), #count { Y : zz(Y) } = 0.
    m(X) :- a(X), not zz(X).
    """
    rules = kept(text, "a(1).\n")
    assert len(rules) == 3


def test_pools_and_choices_make_their_predicates():
    text = """
    kind(x; y).
    { pick(X) : kind(X) }.
    r(X) :- pick(X).
    """
    rules = kept(text, "")
    assert len(rules) == 3


def test_every_name_of_a_head_is_made():
    text = """
    -p(1).
    q(X) :- p(X).
    { r(X) : s(X) } :- a(1).
    t(X) :- r(X); s(X).
    k(g(1)) :- a(1).
    w(X) :- g(X).
    u(X) :- f(X).
    """
    # (over-approximated: `g` is taken as made, classical negation's `p` as `p`)
    rules = kept(text, "a(1).")
    assert len(rules) == 6 and not any(r.startswith("u(") for r in rules)


def test_an_external_of_the_program_counts():
    rules = kept("#external zz(X) : a(X).\ne(X) :- zz(X).\n", "a(1).")
    assert rules == ["e(X) :- zz(X)."]


@pytest.mark.parametrize("body, needs", [
    ("a(X); not b(X); X < 3", {"a"}),
    ('a("x;y", X); c(X) : d(X); #count { Y: e(Y) } = 0', {"a"}),
    ("p(X) < q(Y); r(f(X), (1, 2))", {"r"}),
    ('s(")"); t', {"s", "t"}),
    ("-u(X); @f(X) = 1; v(X;Y)", {"v"}),
])
def test_only_plain_positive_atoms_are_needs(body, needs):
    statements = parsed(f"h :- {body}.")
    assert statement_uses(statements)[-1].needs == needs


@pytest.mark.parametrize("graph", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_the_answers_are_the_whole_programs(graph, monkeypatch):
    path = EXAMPLES / graph
    selected = solve(path)
    monkeypatch.setattr(program, "select", lambda programs, facts, extra="": [
        s for statements, _ in programs for s in statements])
    whole = solve(path)
    assert selected.to_json() == whole.to_json()
    assert selected.warnings == whole.warnings


def test_a_graph_is_solved_with_fewer_rules(monkeypatch):
    path = EXAMPLES / "axon_conv.json"
    solve(path)
    given: list = []
    real = program.select

    def spy(programs, facts, extra=""):
        chosen = real(programs, facts, extra)
        given.append((sum(len(s) for s, _ in programs), len(chosen)))
        return chosen

    monkeypatch.setattr(program, "select", spy)
    solve(path)
    assert given and given[0][1] < given[0][0]


def test_the_first_fact_counts():
    rules = kept(RULES, "zz(1).")
    assert "e(X) :- zz(X)." in rules and "b(X) :- a(X)." not in rules


OPSET_RULES = """
old(N) :- op(N, O), opset("", V), V < 7.
new(N) :- op(N, O), opset("", V), 13 <= V.
older(N) :- old(N).
other(N) :- op(N, O), opset("com.x", V), V > 1.
"""


def test_a_rule_no_stated_opset_meets_is_left_out():
    rules = kept(OPSET_RULES, 'opset("", 17).\nop(n, "Add").\n')
    assert rules == ['new(N) :- op(N,O); opset("",V); 13 <= V.']
    rules = kept(OPSET_RULES, 'op(n, "Add"). opset("", 6).\n')
    assert rules == ['old(N) :- op(N,O); opset("",V); V < 7.', "older(N) :- old(N)."]


def test_opset_otherwise_in_the_facts_keeps_every_opset_rule():
    assert len(kept(OPSET_RULES, 'opset("", 17).\nop(n, "Add").\nx(opset("", 3)).\n')) == 4
    assert len(kept(OPSET_RULES, 'opset("", 17).\nop(n, "Add").\n',
                    extra='opset("", V) :- v(V).')) == 4
