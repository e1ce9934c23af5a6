"""Declared outputs sized by values the graph computes from its shapes but the rules cannot:
a remainder Mod(1, s - 1) (@arith writes no expression for it: `value_open`,
encodings/families.lp), a Sqrt (its rule file derives no values: RuleFile.gives_values),
an integer Pow, a TopK of sizes, the sum of a long arange (their rule files state
value_open), a count of non-zero sizes (a count of the data's is the graph's only over
constants). A size traced there holds at the traced input only; narrowing must see the
graph leave it open, and set the declaration aside (shape_logic/data_sizes.py's
Upstream)."""
import numpy as np
import pytest
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.solver import Problem
from tests.test_narrowing_open_dims import _solves
from tests.test_value_probes import _model as _of_shape  # x [s, t] -> y

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


def _run2(model, s, t):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(sess.run(None, {"x": np.zeros((s, t), np.float32)})[0].shape)


# sizes that the rules leave open, each computed from the shape by an operator whose rule
# file computes some values, not these (a traced declaration was kept, wrong elsewhere)
OPEN = {
    "int power": ([helper.make_node("Pow", ["sh", "two"], ["size"])], {"two": 2}),
    "top k of the sizes": ([helper.make_node("TopK", ["sh", "one"], ["size", "at"])],
                           {"one": [1]}),
    "sum of an arange": ([helper.make_node("Gather", ["sh", "i0"], ["s"], axis=0),
                          helper.make_node("Range", ["i0", "s", "one"], ["r"]),
                          helper.make_node("ReduceSum", ["r"], ["size"], keepdims=1)],
                         {"i0": 0, "one": 1}),
    "count of sizes other than 4": (
        [helper.make_node("Sub", ["sh", "four"], ["d"]),
         helper.make_node("NonZero", ["d"], ["nz"]), helper.make_node("Shape", ["nz"], ["n"]),
         helper.make_node("Slice", ["n", "one", "two", "zero"], ["size"])],
        {"four": 4, "one": [1], "two": [2], "zero": [0]}),
    "gather from a matrix": ([helper.make_node("Reshape", ["sh", "r12"], ["m"]),
                              helper.make_node("Gather", ["m", "i1"], ["g"], axis=1),
                              helper.make_node("Reshape", ["g", "rm1"], ["size"])],
                             {"r12": [1, 2], "i1": [1], "rm1": [-1]}),
    "expand of a vector": ([helper.make_node("Expand", ["sh", "e22"], ["e"]),
                            helper.make_node("Reshape", ["e", "rm1"], ["r"]),
                            helper.make_node("Slice", ["r", "one", "three", "zero"], ["size"])],
                           {"e22": [2, 2], "rm1": [-1], "one": [1], "three": [3], "zero": [0]}),
    "least of three": ([helper.make_node("Min", ["sh", "four", "six"], ["size"])],
                       {"four": 4, "six": 6}),
    "sum of a matrix": ([helper.make_node("Concat", ["sh", "sh"], ["cc"], axis=0),
                         helper.make_node("Reshape", ["cc", "r22"], ["m"]),
                         helper.make_node("Add", ["m", "m"], ["w"]),
                         helper.make_node("Reshape", ["w", "rm1"], ["r"]),
                         helper.make_node("Slice", ["r", "one", "three", "zero"], ["size"])],
                        {"r22": [2, 2], "rm1": [-1], "one": [1], "three": [3], "zero": [0]}),
    "float remainder": ([helper.make_node("Cast", ["sh"], ["f"], to=F),
                         helper.make_node("Mod", ["f", "k"], ["d"], fmod=1),
                         helper.make_node("Cast", ["d"], ["di"], to=I64),
                         helper.make_node("Add", ["di", "one"], ["size"])],
                        {"k": 3.0, "one": 1}),
}


@pytest.mark.parametrize("name", sorted(OPEN))
def test_a_traced_size_the_rules_leave_open_is_set_aside(name):
    nodes, inits = OPEN[name]
    traced = _run2(_of_shape(nodes, inits, None), 5, 3)
    m = _of_shape(nodes, inits, traced)
    assert any(_run2(m, s, t) != traced for s, t in ((8, 4), (2, 6), (4, 13)))
    sol = solve(m)
    assert list(sol.set_aside) == ["y"], name
    assert all(d.startswith("_") for d in sol.shape("y").strip("[]").split(", "))


@pytest.mark.parametrize("op, expected", [("ReduceMax", "max(s, t)"),
                                          ("ReduceMin", "min(s, t)")])
def test_the_greatest_and_least_of_sizes_are_values(op, expected):
    # pad to the larger side: max(h, w) from a Shape, reduced whole (ReduceSum.lp's running
    # value); a traced [5] is then a contradiction of the graph's own
    nodes = [helper.make_node(op, ["sh"], ["size"], keepdims=1)]
    sol = solve(_of_shape(nodes, {}, ["max_side"]))
    assert sol.shape("y") == f"[{expected}]"
    m = _of_shape(nodes, {}, [5])
    for s, t in ((8, 4), (2, 6)):
        assert _run2(m, s, t) == [max(s, t) if op == "ReduceMax" else min(s, t)]
    assert list(solve(m).set_aside) == ["y"]


def test_a_count_the_rules_count_is_the_graph_s_in_one_solve(monkeypatch):
    # NonZero(ConstantOfShape(2*shape, 1)) (Longformer's aranges): the rules count the
    # fill's non-zeros (counted/2), so a declaration of that count is the graph's: one solve
    made = _solves(monkeypatch)
    nodes = [helper.make_node("Mul", ["sh", "two"], ["n"]),
             helper.make_node("ConstantOfShape", ["n"], ["ones"],
                              value=numpy_helper.from_array(np.array([1], np.int64))),
             helper.make_node("NonZero", ["ones"], ["nz"]),
             helper.make_node("Shape", ["nz"], ["nzs"]),
             helper.make_node("Slice", ["nzs", "one", "two1", "zero"], ["size"])]
    m = _of_shape(nodes, {"two": 2, "one": [1], "two1": [2], "zero": [0]}, ["4*s*t"])
    assert _run2(m, 3, 5) == [60]
    sol = solve(m)
    assert sol.shape("y") == "[4*s*t]" and not sol.set_aside and len(made) == 1


def test_relu_of_a_symbolic_value_is_its_maximum_with_0():
    # Relu(Shape(x) - 4): max(0, s - 4) (a traced [1, 0] is then the graph's contradiction)
    nodes = [helper.make_node("Sub", ["sh", "four"], ["d"]),
             helper.make_node("Relu", ["d"], ["size"])]
    sol = solve(_of_shape(nodes, {"four": 4}, ["a", "b"]))
    assert sol.shape("y") == "[max(0, s - 4), max(0, t - 4)]"
    m = _of_shape(nodes, {"four": 4}, [1, 0])
    assert _run2(m, 2, 9) == [0, 5] and list(solve(m).set_aside) == ["y"]


def test_a_resize_to_a_size_that_may_be_negative_is_open():
    # sizes [s, s - 2]: no dim where s - 2 may be negative, and the axis is stated unsized
    # (it was not: a traced [s, 1] was kept; fuzz --open-axes ops 6701, graph 724)
    nodes = [helper.make_node("Shape", ["x"], ["sh"], start=0, end=1),
             helper.make_node("Add", ["sh", "m2"], ["sm2"]),
             helper.make_node("Concat", ["sh", "sm2"], ["sizes"], axis=0),
             helper.make_node("Resize", ["x2", "", "", "sizes"], ["y"], mode="nearest")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, ["s"]),
                                       helper.make_tensor_value_info("x2", F, ["a", "b"])],
                          [helper.make_tensor_value_info("y", F, ["s", 1])],
                          [numpy_helper.from_array(np.array([-2], np.int64), "m2")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    sol = solve(m)
    assert list(sol.set_aside) == ["y"] and sol.shape("y").startswith("[s, _")


def test_a_sum_s_axis_neither_input_decides_is_open():
    # Sum(x[s - 2], y[t]): s - 2 and t may each be 1; the variadic chain's broadcast states
    # the axis unsized on its virtual tensor, and now on the output (a traced [3] was kept)
    nodes = [helper.make_node("Gather", ["sh", "i0"], ["s"], axis=0),
             helper.make_node("Sub", ["s", "two"], ["n"]),
             helper.make_node("Unsqueeze", ["n", "zero"], ["size"])]
    m = _of_shape(nodes, {"i0": 0, "two": 2, "zero": [0]}, None)
    m.graph.node.append(helper.make_node("Sum", ["y", "v"], ["w"]))
    m.graph.input.append(helper.make_tensor_value_info("v", F, ["t"]))
    m.graph.output.pop()
    m.graph.output.append(helper.make_tensor_value_info("w", F, [3]))
    sol = solve(m)
    assert list(sol.set_aside) == ["w"] and sol.shape("w").startswith("[_")
