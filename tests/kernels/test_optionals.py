"""Optional kernels against onnx's reference evaluator, on the graphs of
tests/ops/optional_check.py: empty optionals (None) in and out, optionals of sequences,
an empty optional of a type, an absent input."""
import numpy as np
import pytest
from onnx import helper

from shape_logic.kernels import load_kernel
from shape_logic.kernels.base import KernelError, Seq
from tests.ops.optional_check import check

from . import reference

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def checked(op, nodes, feeds, optional=frozenset(), ort_type=None):
    """tests.ops.optional_check.check, recorded for test_coverage."""
    reference.TESTED.add(op)
    reference.ATTEMPTED[op] += 1
    out = check(nodes, feeds, optional, ort_type)
    reference.COMPARED[op] += 1
    return out


@pytest.mark.parametrize("x", [X, [X, X[:1]], []], ids=["tensor", "sequence", "empty-seq"])
def test_optional_holds_its_input(x):
    y, _ = checked("Optional", [helper.make_node("Optional", ["x"], ["y"])], {"x": x})
    assert (y is X) if isinstance(x, np.ndarray) else list(y) == list(x)


def test_an_empty_optional_is_none():
    tp = helper.make_tensor_type_proto(1, [2])
    nodes = [helper.make_node("Optional", [], ["o"], type=tp),
             helper.make_node("OptionalHasElement", ["o"], ["y"])]
    # (against onnxruntime: onnx's reference holds Optional() as [None], not empty)
    y, _ = checked("Optional", nodes, {}, ort_type=helper.make_tensor_type_proto(9, []))
    assert y.dtype == np.bool_ and not y
    assert load_kernel("Optional")({"type": tp})() == (None,)


@pytest.mark.parametrize("x", [X, None, [X]], ids=["tensor", "empty", "sequence"])
def test_has_element(x):
    y, _ = checked("OptionalHasElement", [helper.make_node("OptionalHasElement", ["x"], ["y"])],
                   {"x": x}, {"x"})
    assert bool(y) == (x is not None)


@pytest.mark.parametrize("inputs", [[], [""]], ids=["none", "empty-name"])
def test_has_element_without_an_input(inputs):
    y, _ = checked("OptionalHasElement",
                   [helper.make_node("OptionalHasElement", inputs, ["y"])], {})
    assert y.shape == () and not y


@pytest.mark.parametrize("optional", [True, False])
def test_get_element(optional):
    y, _ = checked("OptionalGetElement", [helper.make_node("OptionalGetElement", ["x"], ["y"])],
                   {"x": X}, {"x"} if optional else set())
    assert y is X
    y, _ = checked("OptionalGetElement", [helper.make_node("OptionalGetElement", ["x"], ["y"])],
                   {"x": [X, X]}, {"x"} if optional else set())
    assert type(y) is Seq and len(y) == 2


def test_get_element_of_none_fails():
    with pytest.raises(KernelError, match="OptionalGetElement: the optional is empty"):
        load_kernel("OptionalGetElement")()(None)


def test_identity_copies_an_empty_optional():
    assert load_kernel("Identity")()(None) == (None,)
    with pytest.raises(KernelError, match="'type'"):
        load_kernel("Optional")()()
