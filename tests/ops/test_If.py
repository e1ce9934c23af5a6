"""If: rules/If.lp on data cases (branches as graph objects); the kernel against
onnxruntime in tests/kernels/test_nn.py::test_if."""
import pytest

from shape_logic.testing import check_case


def branch(shape, value=1.0):
    return {"inputs": [], "outputs": ["out"],
            "nodes": [{"op": "ConstantOfShape", "inputs": ["s"], "outputs": ["out"],
                       "attrs": {"value": {"dtype": "f32", "shape": [1], "data": [value]}}}],
            "initializers": {"s": {"dtype": "i64", "data": shape}}}


def if_(then, else_):
    return {"inputs": [("bool", "[]")], "attrs": {"then_branch": then, "else_branch": else_}}


CASES = {
    "same shapes": (if_(branch([2, 3]), branch([2, 3])), {"y0": "[2, 3]"}),
    "branches differ in one axis": (if_(branch([2, 3]), branch([2, 5])), {"y0": "[2, _1]"}),
    "branches differ in rank": (if_(branch([2, 3]), branch([2])), {"y0": "_1"}),
    "dtype": (if_(branch([4]), branch([4])), {"dtypes": {"y0": "f32"}}),
    # errors
    "a float condition": ({**if_(branch([1]), branch([1])), "inputs": [("f32", "[]")]}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("If", *CASES[name])
