"""The values of a sequence's elements (rules/SequenceAt.lp, ConcatFromSequence.lp): shape
vectors put in a sequence and taken out again (an element, or all of them joined) size
the Reshape after it. Each model is run by onnxruntime at two sizes of x [s, t]."""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

from tests.onnx_graphs import N, solved_checked, x_feeds


def _model(nodes, inits=None):
    """x [s, t], sh = Shape(x); `nodes` make y of them."""
    inits = {"zero": 0, "one": 1, "minus1": -1, "c23": [2, 3], **(inits or {})}
    g = helper.make_graph(
        [N("Shape", "x", "sh"), N("Gather", "sh zero", "s0"), N("Gather", "sh one", "t0")]
        + nodes, "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["s", "t"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def _shape(nodes, inits=None):
    return solved_checked(_model(nodes, inits), x_feeds()).shape("y")


def test_an_element_taken_out_by_its_position():
    assert _shape([N("SequenceConstruct", "c23 sh", "q"), N("SequenceAt", "q one", "v"),
                   N("Reshape", "x v", "y")]) == "[s, t]"
    # (counted from the end)
    assert _shape([N("SequenceConstruct", "sh c23", "q"), N("SequenceAt", "q minus1", "v"),
                   N("ConstantOfShape", "v", "y")]) == "[2, 3]"


def test_vectors_joined():
    # [t] and [s] joined: y = x reshaped to [t, s]
    assert _shape([N("Unsqueeze", "t0 z1", "a"), N("Unsqueeze", "s0 z1", "b"),
                   N("SequenceConstruct", "a b", "q"),
                   N("ConcatFromSequence", "q", "v", axis=0), N("Reshape", "x v", "y")],
                  {"z1": [0]}) == "[t, s]"
    # [s, t] and [2, 3]: the second's elements after the first's two
    assert _shape([N("SequenceConstruct", "sh c23", "q"),
                   N("ConcatFromSequence", "q", "v", axis=0),
                   N("ConstantOfShape", "v", "y")]) == "[s, t, 2, 3]"


def test_scalars_stacked():
    assert _shape([N("SequenceConstruct", "t0 s0 one", "q"),
                   N("ConcatFromSequence", "q", "v", axis=0, new_axis=1),
                   N("ConstantOfShape", "v", "y")]) == "[t, s, 1]"
