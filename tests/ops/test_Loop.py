"""Loop: rules/Loop.lp on data cases (bodies as graph objects); the kernel against
onnxruntime in tests/kernels/test_nn.py::test_loop."""
import numpy as np
import pytest

from shape_logic.testing import check_case


def body(carried_nodes, outputs, extra_inputs=("v",)):
    return {"inputs": ["i", "c", *extra_inputs], "outputs": ["c2", *outputs],
            "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]}, *carried_nodes]}


DOUBLE = body([{"op": "Add", "inputs": ["v", "v"], "outputs": ["v2"]},
               {"op": "Relu", "inputs": ["v"], "outputs": ["e"]}], ["v2", "e"])
GROW = body([{"op": "Concat", "inputs": ["v", "v"], "outputs": ["v2"], "attrs": {"axis": 0}}],
            ["v2"])
M3 = np.array(3, dtype=np.int64)


def loop(inputs, b, n_outputs):
    return {"inputs": inputs, "attrs": {"body": b}, "n_outputs": n_outputs}


CASES = {
    "invariant value, for loop": (loop([M3, None, "[b, 4]"], DOUBLE, 2),
                                  {"y0": "[b, 4]", "y1": "[3, b, 4]"}),
    "while loop: a fresh trip count": (loop([None, ("bool", "[]"), "[b, 4]"], DOUBLE, 2),
                                       {"y0": "[b, 4]", "y1": "[_1, b, 4]"}),
    "trip count and condition: a fresh trip count": (
        loop([M3, ("bool", "[]"), "[n]"], DOUBLE, 2), {"y1": "[_1, n]"}),
    "negative trip count: no iteration": (loop([np.array(-2, np.int64), None, "[n]"], DOUBLE, 2),
                                          {"y1": "[0, n]"}),
    "a growing value is left open": (loop([M3, None, "[2, 3]"], GROW, 1), {"y0": "_1"}),
    "dtypes": (loop([M3, None, ("f64", "[2]")], DOUBLE, 2),
               {"dtypes": {"y0": "f64", "y1": "f64"}}),
    # errors
    "body takes another number of inputs": (loop([M3, None, "[2]", "[2]"], DOUBLE, 2), "error"),
    "float trip count": (loop([("f32", "[]"), None, "[2]"], DOUBLE, 2), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("Loop", *CASES[name])
