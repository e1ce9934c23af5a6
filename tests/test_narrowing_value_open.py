"""Declared outputs sized by values the graph computes from its shapes but the rules cannot:
a remainder Mod(1, s - 1) (@arith writes no expression for it: `value_open`,
encodings/families.lp), a Sqrt (its rule file derives no values: RuleFile.gives_values).
A size traced there holds at the traced input only; narrowing must see the graph leave it
open, and set the declaration aside (shape_logic/data_sizes.py's Upstream)."""
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.solver import Problem
from tests.test_narrowing_open_dims import _solves

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def _model(size_nodes, inits, declared):
    """x [s] -> size_nodes make `size` (an int64 scalar) -> ConstantOfShape([size])."""
    nodes = [helper.make_node("Shape", ["x"], ["shape"])] + size_nodes + [
        helper.make_node("Unsqueeze", ["size", "zero"], ["sizes"]),
        helper.make_node("ConstantOfShape", ["sizes"], ["y"])]
    inits = [numpy_helper.from_array(np.array(v, dtype), k) for k, (v, dtype) in {
        "zero": ([0], np.int64), **inits}.items()]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, ["s"])],
                          [helper.make_tensor_value_info("y", F, declared)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def _mod(declared):
    """size = 2 - Mod(1, s - 1): 1 for s >= 3, 2 at s = 2 (1 mod 1 is 0)."""
    return _model([helper.make_node("Gather", ["shape", "i0"], ["s"], axis=0),
                   helper.make_node("Sub", ["s", "one"], ["s1"]),
                   helper.make_node("Mod", ["one", "s1"], ["r"]),
                   helper.make_node("Sub", ["two", "r"], ["size"])],
                  {"i0": (0, np.int64), "one": (1, np.int64), "two": (2, np.int64)}, declared)


def _sqrt(declared):
    """size = int(sqrt(s)): 2 for s in 4..8, 3 at s = 9."""
    return _model([helper.make_node("Cast", ["shape"], ["f"], to=F),
                   helper.make_node("Sqrt", ["f"], ["r"]),
                   helper.make_node("Cast", ["r"], ["c"], to=I64),
                   helper.make_node("ReduceMax", ["c"], ["size"], keepdims=0)],
                  {}, declared)


def _runs(model, s):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": np.zeros(s, np.float32)})[0].shape


def test_a_size_from_a_remainder_the_rules_cannot_write_is_set_aside():
    # declared [1] (traced at s = 5) was kept: wrong at s = 2, where onnxruntime gives 2
    m = _mod([1])
    assert _runs(m, 5) == (1,) and _runs(m, 2) == (2,)
    sol = solve(m)
    assert list(sol.set_aside) == ["y"] and sol.shape("y") == "[_1]"
    assert "which would give axis 0 = 1 that the graph leaves open" in sol.warnings[0]


def test_value_open_is_the_element_arith_cannot_compute():
    problem = Problem.load(_mod([1]), (), False)
    atoms, _ = problem.atoms()
    assert atoms.value_open == {"r"}  # (s - 1 and 2 - r: the one, and what comes of it)


def test_a_size_from_an_operator_that_derives_no_values_is_set_aside():
    # Sqrt.lp derives no values: the graph leaves int(sqrt(s)) open, a traced 2 is set aside
    m = _sqrt([2])
    assert _runs(m, 5) == (2,) and _runs(m, 9) == (3,)
    sol = solve(m)
    assert list(sol.set_aside) == ["y"] and sol.shape("y") == "[_1]"


def test_sizes_the_rules_compute_are_kept_in_one_solve(monkeypatch):
    # size = s - 1 + 1 - 1: the graph gives it, the declaration [s - 1] agrees, one solve
    made = _solves(monkeypatch)
    m = _model([helper.make_node("Gather", ["shape", "i0"], ["s"], axis=0),
                helper.make_node("Sub", ["s", "one"], ["size"])],
               {"i0": (0, np.int64), "one": (1, np.int64)}, ["s - 1"])
    sol = solve(m)
    assert sol.shape("y") == "[s - 1]" and not sol.set_aside and not sol.warnings
    assert len(made) == 1


def test_an_integer_float_operand_is_no_open_value(monkeypatch):
    # Cast(s) + 1.0 has two spellings of its operand (s and real("...")); the float one
    # that @arith leaves alone is no open value: the pair of integers computes it
    made = _solves(monkeypatch)
    m = _model([helper.make_node("Gather", ["shape", "i0"], ["s"], axis=0),
                helper.make_node("Cast", ["s"], ["f"], to=F),
                helper.make_node("Add", ["f", "onef"], ["g"]),
                helper.make_node("Cast", ["g"], ["size"], to=I64)],
               {"i0": (0, np.int64), "onef": (1.0, np.float32)}, ["s + 1"])
    sol = solve(m)
    assert sol.shape("y") == "[s + 1]" and not sol.set_aside
    assert len(made) == 1
