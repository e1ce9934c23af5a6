"""Every reason our rule files and encodings give for an invalid node is worded: each
`invalid(N, Why)` head's Why (a name and an arity) has a why_text fact, "name/arity" or
"name", whose {k} name arguments the term has (encodings/schema.lp, diagnostics.why_text).
Without one a diagnostic shows the bare term ("lengths (3, 4)")."""
import re
from collections import defaultdict

from clingo import ast

from shape_logic.asp.program import ENCODINGS_DIR, RULES_DIR, why_texts

# worded by diagnostics.why_text itself (their arguments are counts to compare)
WORDED_IN_PYTHON = {"axis_out_of_range", "inputs", "outputs"}


def _reasons() -> dict:
    """(name, arity) -> the files whose rules derive invalid(N, name(..))."""
    found = defaultdict(set)

    def visit(path):
        def on_statement(stm):
            if stm.ast_type != ast.ASTType.Rule or stm.head.ast_type != ast.ASTType.Literal:
                return
            atom = stm.head.atom
            if atom.ast_type != ast.ASTType.SymbolicAtom:
                return
            t = atom.symbol
            if t.ast_type != ast.ASTType.Function or t.name != "invalid" or \
                    len(t.arguments) != 2:
                return
            why = t.arguments[1]
            if why.ast_type == ast.ASTType.Function:
                found[(why.name, len(why.arguments))].add(path.name)
            elif why.ast_type == ast.ASTType.SymbolicTerm:
                found[(str(why.symbol).strip('"'), 0)].add(path.name)
        ast.parse_files([str(path)], on_statement)

    for path in sorted(RULES_DIR.glob("*.lp")) + sorted(ENCODINGS_DIR.glob("*.lp")):
        visit(path)
    return found


def test_the_scan_sees_the_reasons_it_should():
    reasons = _reasons()
    assert ("empty_output", 1) in reasons and "Conv.lp" in reasons[("empty_output", 1)]
    assert ("dtype_not_float", 1) in reasons and len(reasons) > 200


def test_every_reason_of_our_rule_files_is_worded():
    texts = why_texts()
    missing = sorted(f"{name}/{arity} ({', '.join(sorted(files)[:3])})"
                     for (name, arity), files in _reasons().items()
                     if name not in WORDED_IN_PYTHON
                     and f"{name}/{arity}" not in texts and name not in texts)
    assert not missing, f"{len(missing)} reasons without a why_text: " + "; ".join(missing)


def test_a_text_names_only_arguments_its_term_has():
    texts = why_texts()
    wrong = []
    for (name, arity) in _reasons():
        text = texts.get(f"{name}/{arity}", texts.get(name))
        if text is None:
            continue
        wanted = [int(k) for k in re.findall(r"\{(\d+)\}", text)]
        if any(k < 1 or k > arity for k in wanted):
            wrong.append(f"{name}/{arity}: {text}")
    assert not wrong, wrong
