"""A solve leaves encodings/rows.lp out when no row can occur (solver.rows_possible): no
declaration gives one and no rule file seeds them. A rule file seeds rows when it can
derive `min_rank` or `same_row` from anything but rows; such a file says so (`% rows:
seeds`). Here each file's rules are checked for it, by a fixpoint over predicates that
over-approximates what can fire (every predicate the file and rows.lp do not define is
taken to hold, but min_rank and same_row; negations, conditions and aggregates never stop
a rule), so a file that can seed rows and does not say so fails."""
import clingo.ast as ast
import pytest

import shape_logic
from shape_logic.asp.program import CORE_FILES, ENCODINGS_DIR, RULES_DIR, load_rule_file
from shape_logic.solver import Problem

ROWS = {"min_rank", "same_row"}


def _atoms(term) -> list[str]:
    if term.ast_type == ast.ASTType.Pool:
        return [a for t in term.arguments for a in _atoms(t)]
    if term.ast_type == ast.ASTType.SymbolicTerm:
        return [term.symbol.name]
    return [term.name]


def _rules(path) -> list[tuple[set, set]]:
    """(head predicates, predicates the positive body needs) per rule."""
    stmts: list = []
    ast.parse_files([str(path)], stmts.append)
    out = []
    for s in stmts:
        if s.ast_type != ast.ASTType.Rule:
            continue
        head = s.head
        if head.ast_type == ast.ASTType.Literal:
            heads = set(_atoms(head.atom.symbol)) if head.atom.ast_type == \
                ast.ASTType.SymbolicAtom else set()
        else:  # choices, disjunctions: their atoms may all be derived
            heads = {a for e in head.elements for a in _atoms(
                (e.literal if hasattr(e, "literal") else e.condition.literal).atom.symbol)}
        needs = {a for lit in s.body if lit.ast_type == ast.ASTType.Literal
                 and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == ast.ASTType.SymbolicAtom
                 for a in _atoms(lit.atom.symbol)}
        out.append((heads, needs))
    return out


def seeds_rows(path) -> bool:
    rules = _rules(path) + _rules(ENCODINGS_DIR / "rows.lp")
    defined = {h for heads, _ in rules for h in heads}
    holds = set()  # what the file and rows.lp derive; all else holds, but rows
    changed = True
    while changed:
        changed = False
        for heads, needs in rules:
            if all(n in holds or (n not in defined and n not in ROWS) for n in needs):
                if not heads <= holds:
                    holds |= heads
                    changed = True
    return bool(holds & ROWS)


@pytest.mark.parametrize("path", sorted(RULES_DIR.glob("*.lp")), ids=lambda p: p.stem)
def test_a_rule_file_says_whether_it_seeds_rows(path):
    assert load_rule_file(path.stem, path).seeds_rows == seeds_rows(path)


@pytest.mark.parametrize("name", [f for f in CORE_FILES if f not in ("rows.lp", "given.lp")])
def test_no_encoding_seeds_rows_when_solving(name):
    # given.lp makes rows only from declarations with sources (explaining); alternatives.lp
    # is not part of a solve
    assert not seeds_rows(ENCODINGS_DIR / name)


def test_the_check_finds_a_seed():
    assert seeds_rows(RULES_DIR / "Loop.lp")
    assert not seeds_rows(RULES_DIR / "MatMul.lp")  # its rows need rows already


def test_rows_are_left_out_only_where_none_can_occur():
    static = {"inputs": {"x": {"dtype": "f32", "shape": "[n, 3]"}},
              "nodes": [{"op": "ReduceSum", "inputs": ["x"], "outputs": ["y"]}]}
    assert not Problem.load(static).rows_possible
    unshaped = {"inputs": {"x": {"dtype": "f32"}}, "nodes": static["nodes"]}
    assert Problem.load(unshaped).rows_possible
    assert shape_logic.solve(unshaped).shape("y") != shape_logic.solve(static).shape("y")
    row = {"inputs": {"x": {"dtype": "f32", "shape": "s@[3]"}}, "nodes": static["nodes"]}
    assert Problem.load(row).rows_possible
