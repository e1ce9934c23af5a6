"""How an invalid node's reason is worded: a rule file's why_text(Name, Text) facts
(encodings/schema.lp), {1}, {2}... its arguments; the term itself where none is stated."""
import re
from pathlib import Path

import shape_logic
from shape_logic.asp.program import ENCODINGS_DIR, RULES_DIR, why_texts
from shape_logic.diagnostics import why_text


def test_an_empty_convolution_output_is_said_in_words():
    # a 3-wide kernel over 2 columns: "empty output (1)" before
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 3, 8, 2]"},
                    "w": {"dtype": "f32", "shape": [4, 3, 3, 3]}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"pads": [1, 0, 1, 0]}}]}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.message == ('Conv "conv": the output is empty along spatial axis 1 (from 0): '
                         "the dilated window is larger than the padded input")


def test_the_arity_picks_the_text_and_an_unknown_reason_stays_a_term():
    assert why_text("nonpositive(strides, 0)") == "strides must be positive, not 0"
    assert why_text("nonpositive(kernel, 1, 0)") == "kernel axis 1 must be positive, not 0"
    assert why_text("negative_size(0, -2)") == "element 0 of the shape is negative: -2"
    assert why_text("no_such_reason(1, 2)") == "no such reason (1, 2)"
    # (reasons many rule files share are worded in encodings/violations.lp)
    assert why_text("dtype_not_float(i64)") == "takes float tensors, not i64"
    assert why_text("missing_attr(kernel_shape)") == "needs the attribute kernel_shape"
    # (arity's counts, and rule files' own of outputs)
    assert why_text("inputs(0, 1, 1)") == "takes 1 input, not 0"
    assert why_text("outputs(3, 1, 2)") == "gives 1 to 2 outputs, not 3"


def test_our_rule_files_word_a_reason_one_way():
    said: dict = {}
    pattern = re.compile(r'^why_text\("([\w/]+)", "(.*)"\)\.$', re.M)
    for path in sorted(RULES_DIR.glob("*.lp")) + sorted(ENCODINGS_DIR.glob("*.lp")):
        for name, text in pattern.findall(path.read_text()):
            assert said.setdefault(name, text) == text, (path.name, name)
    assert said and all(why_texts()[name] == text for name, text in said.items())


def test_a_users_rule_file_words_its_own_reasons(tmp_path: Path):
    (tmp_path / "Twice.lp").write_text(
        '%*! Twice(X) -> Y: X repeated, at most 4 elements. *%\n'
        'twice(N, X, Y) :- op(N, "Twice"), input(N, 0, X), output(N, 0, Y).\n'
        'same_shape(X, Y) :- twice(N, X, Y).\n'
        'invalid(N, too_long(D)) :- twice(N, X, Y), dim(X, 0, D), D > 4, D < 1073741824.\n'
        'why_text("too_long", "takes at most 4 elements, not {1}").\n')
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[6]"}},
         "nodes": [{"name": "t", "op": "Twice", "inputs": ["x"], "outputs": ["y"]}]}
    (d,) = shape_logic.solve(g, rules=[str(tmp_path)]).diagnostics
    assert d.message == 'Twice "t": takes at most 4 elements, not 6'
