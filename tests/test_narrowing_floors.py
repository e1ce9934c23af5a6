"""Floors that a solve under floors no longer derives are still the graph's requirements
(floor_rounds.with_bounds_in_force), and narrowing reads one an equation requires as a
requirement of the declaration that makes the equation (requirements.input_requirements)."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve

F = TensorProto.FLOAT
# columns of x [3, s] sliced [-2:2:2]: 1 for s <= 3, 0 from s = 4 on
E = "max(0, (min(2, s) - max(0, s - 2) + 1)//2)"


def _sliced(declared: list, nonzero: bool = False):
    """x [3, s] sliced [-2:2:2] along its columns, the output declared `declared`; with
    `nonzero`, a NonZero of another input beside it (its count a fresh name: the solve is
    then made again under the floors it finds, floor_rounds.under_floors)."""
    inits = [numpy_helper.from_array(np.array([v], np.int64), name)
             for name, v in (("starts", -2), ("ends", 2), ("axes", 1), ("steps", 2))]
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])]
    inputs = [helper.make_tensor_value_info("x", F, [3, "s"])]
    if nonzero:
        nodes.append(helper.make_node("NonZero", ["z"], ["nz"]))
        inputs.append(helper.make_tensor_value_info("z", TensorProto.INT64, ["a", "b"]))
    g = helper.make_graph(nodes, "g", inputs,
                          [helper.make_tensor_value_info("y", F, declared)], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def _columns(s: int) -> int:
    return np.zeros((3, s))[:, -2:2:2].shape[1]


@pytest.mark.parametrize("nonzero", [False, True])
def test_a_declaration_that_requires_a_floor_through_an_equation_is_set_aside(nonzero):
    # declared 2*E, the graph gives E: E = 2*E holds only where E is 0, so s >= 4. Beside
    # a NonZero, the solve was made again under s >= 4, which made both sides 0: the
    # equation went, and the floor with it. y was [3, 0], kept, with nothing required,
    # where s = 3 runs with 1 column (fuzz --kind ops --narrowing --seed 562, graph 35)
    sol = solve(_sliced([3, f"2*{E}"], nonzero))
    assert sol.shape("y") == f"[3, {E}]"
    (warning,) = sol.warnings
    assert warning.startswith("graph output y is declared [3, 2*max(") and (
        "which would require s >= 4;" in warning or
        f"which would require 2*{E} = {E};" in warning), warning
    assert [_columns(s) for s in (1, 2, 3, 4, 5)] == [1, 1, 1, 0, 0]


@pytest.mark.parametrize("declared", [[3, E], [3, "c"]])
def test_a_declaration_that_requires_nothing_is_kept(declared):
    sol = solve(_sliced(declared))
    assert sol.warnings == [] and sol.floors == {}
    assert sol.shape("y") in (f"[3, {E}]", "[3, c]")


def test_the_floors_a_solve_is_made_under_are_in_its_answer():
    # The same equation where the model means it: y annotated 2*E (a JSON graph's
    # annotation is no advice). The answer requires s >= 4, under which y has 0 columns
    g = {"name": "slice",
         "inputs": {"x": {"dtype": "f32", "shape": "[3, s]"}},
         "initializers": {n: {"dtype": "i64", "shape": "[1]", "data": [v]}
                          for n, v in (("starts", -2), ("ends", 2), ("axes", 1),
                                       ("steps", 2))},
         "nodes": [{"name": "cut", "op": "Slice",
                    "inputs": ["x", "starts", "ends", "axes", "steps"], "outputs": ["y"]}],
         "outputs": {"y": {"shape": f"[3, 2*{E}]"}}}
    sol = solve(g)
    assert sol.status == "ok" and sol.floors == {"s": 4}
    # ... and so it is where a NonZero beside it has the graph solved again under s >= 4
    g["inputs"]["z"] = {"dtype": "i64", "shape": "[a, b]"}
    g["nodes"].append({"name": "nz", "op": "NonZero", "inputs": ["z"], "outputs": ["n"]})
    g["outputs"]["n"] = {}
    sol = solve(g)
    assert sol.status == "ok" and sol.floors == {"s": 4} and sol.shape("y") == "[3, 0]"
