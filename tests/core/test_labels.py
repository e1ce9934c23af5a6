"""Axis labels (OCANNL's dim labels): `[batch:b, rgb:3]` in annotations (encodings/labels.lp)."""
import pytest

import shape_logic
from shape_logic.errors import InputError
from shape_logic.shapes import parse_shape


def solve(x, w):
    return shape_logic.solve({
        "inputs": {"x": {"dtype": "f32", "shape": x}, "w": {"dtype": "f32", "shape": w}},
        "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]},
                  {"op": "MatMul", "inputs": ["y", "w"], "outputs": ["z"]}]})


def test_parse_and_print():
    sh = parse_shape("[batch:b, 3]@s@[feat:a]")
    assert str(sh) == "[batch:b, 3]@s@[feat:a]" and sh.labels[0] == ("batch", None)
    assert parse_shape("[b, 3]").labels == ()


def test_labels_travel_along_equal_axes():
    sol = solve("[batch:b, rgb:3]", "[k, out:4]")
    assert sol.shape("y") == "[batch:b, rgb:3]"
    assert sol.shape("w") == "[rgb:3, out:4]"  # the contracted axis takes x's label
    assert sol.shape("z") == "[batch:b, out:4]"


def test_two_labels_at_one_axis_is_a_diagnostic():
    sol = solve("[batch:b, rgb:3]", "[chan:k, out:4]")
    assert sol.status == "error"
    d = sol.to_json()["diagnostics"][0]
    assert d["code"] == "E0009" and sorted(d["values"]) == ["chan", "rgb"]


def test_labels_on_rows():
    sol = shape_logic.solve({"inputs": {"x": {"dtype": "f32", "shape": "s@[feat:a]"}},
                             "nodes": [{"op": "Softmax", "inputs": ["x"], "outputs": ["y"]}]})
    assert sol.shape("y") == "s@[feat:a]"


def test_a_label_without_a_dim_is_a_syntax_error():
    with pytest.raises(InputError):
        shape_logic.solve({"inputs": {"x": {"dtype": "f32", "shape": "[batch:]"}},
                           "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}]})
