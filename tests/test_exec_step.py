"""The checks of a step's outputs and aliases, worked out once per plan
(exec_step.compile_checks): an alias whose expected shape and dtype are its output's
concrete ones is covered by the output's check; any other is still checked, and a
mismatch still raises naming the tensor."""
import numpy as np
import pytest

from shape_logic.exec_step import compile_checks
from shape_logic.executor import Program, ShapeMismatch
from shape_logic.match_cast import Binder, Expected

from .test_exec_conv_add import residual


def fused_program():
    g, feeds = residual(np.random.default_rng(7))
    program = Program(g)
    (conv,) = program.steps
    return program, conv, feeds


def test_aliases_of_the_outputs_shape_are_covered_by_its_check():
    program, conv, feeds = fused_program()
    plan = program._plan(program._feeds(feeds), Binder())
    outs, aliases = compile_checks(conv, plan.expected)
    assert [t for _, t, _, _ in outs] == ["y"]
    assert [a[0] for a in conv.aliases[0]] == ["h", "s"]
    assert aliases == []  # h and s have y's shape and dtype


def test_an_alias_expected_otherwise_is_still_checked():
    program, conv, feeds = fused_program()
    program.run(feeds)
    (plan,) = program._plans.values()
    plan.expected["h"] = Expected.of(None, "f32")  # rank unknown: checked by the binder
    plan.checks.clear()
    _, aliases = compile_checks(conv, plan.expected)
    assert [a[1] for a in aliases] == ["h"]
    program.run(feeds)
    plan.expected["h"] = Expected((1, 4, 5, 6), np.dtype(np.float32), True)
    plan.checks.clear()
    with pytest.raises(ShapeMismatch, match="tensor 'h'"):
        program.run(feeds)


def test_an_output_mismatch_raises_with_the_binders_message():
    program, conv, feeds = fused_program()
    program.run(feeds)
    (plan,) = program._plans.values()
    plan.expected["y"] = Expected((1, 4, 5, 6), np.dtype(np.float32), True)
    plan.checks.clear()
    with pytest.raises(ShapeMismatch, match="tensor 'y'"):
        program.run(feeds)
