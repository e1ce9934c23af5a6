"""Longformer's sliding-window attention as the legacy exporter writes it: the sequence padded
to a multiple of the window (m = s + 3*s%4, for a window of 4), chunks of half a window
(m//2 beside 2*(m//4), one number), and aranges over symbolic lengths as
NonZero(ConstantOfShape([n], 1)). Each graph is checked against onnxruntime."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.symbolic.bounds import bounds
from shape_logic.symbolic.parse import parse_dim

from ..onnx_graphs import assert_runtime_shapes


@pytest.mark.parametrize("text, canonical", [
    ("(s + 3*s%4)//2", "2*((s + 3*s%4)//4)"),              # a multiple of 4, halved
    ("(20*b*s + 20*b*(3*s%4))//(40*b)", "2*((s + 3*s%4)//4)"),
    ("(s + 7*s%8)//2", "4*((s + 7*s%8)//8)"),
    ("(s + 3*s%4)//8", "(s + 3*s%4)//8"),                  # 8 is no divisor of 4
    ("(s + 3*s%4 + 1)//2", "(s + 3*s%4 + 1)//2"),          # no multiple of 4
])
def test_a_multiple_divided_by_a_divisor_of_its_modulus(text, canonical):
    e = parse_dim(text)
    assert str(e) == canonical
    for s in range(1, 40):
        assert e.subs({"s": parse_dim(str(s))}).value == eval(
            text.replace("b", "1").replace("s", str(s)))


def test_a_positive_multiple_is_at_least_its_factor():
    assert bounds(parse_dim("(s + 3*s%4)//4"))[0] == 1
    assert bounds(parse_dim("(s + 3*s%4)//8"))[0] == 0  # (4 is a multiple of 4, not of 8)
    assert bounds(parse_dim("(s + 3*s%4 - 4)//4"))[0] == 0


def _model(nodes, inits, outputs):
    graph = helper.make_graph(
        nodes, "padded", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "s"])],
        [helper.make_tensor_value_info(o, t, None) for o, t in outputs.items()],
        [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _padded_model():
    """x [b, s] padded to m = s + (-s)%4 (Pad by Mod(-s, 4)), y reshaped to [b, m//4, 4]
    and to [b, m//2, 2]; the chunks of y2 [b, m//2 - 1, 2] (a Slice to -1) Expanded to the
    shape of a [b, 2*(m//4) - 1, 2] Slice of y4's: the same, so no broadcast; and an arange
    of 4*b positions, NonZero(ConstantOfShape([4*b], 1))."""
    one = numpy_helper.from_array(np.array([1], np.int64))
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "one"], ["s"], axis=0),
        helper.make_node("Gather", ["shape", "zero"], ["b"], axis=0),
        helper.make_node("Mod", ["minus_s", "four"], ["pad"]),
        helper.make_node("Neg", ["s"], ["minus_s"]),
        helper.make_node("Unsqueeze", ["pad", "zeros1"], ["pad1"]),
        helper.make_node("Concat", ["zeros3", "pad1"], ["pads"], axis=0),
        helper.make_node("Pad", ["x", "pads"], ["y"]),
        helper.make_node("Shape", ["y"], ["yshape"]),
        helper.make_node("Gather", ["yshape", "one"], ["m"], axis=0),
        helper.make_node("Div", ["m", "two"], ["half"]),
        helper.make_node("Div", ["m", "four"], ["quarter"]),
        helper.make_node("Unsqueeze", ["half", "zeros1"], ["half1"]),
        helper.make_node("Unsqueeze", ["quarter", "zeros1"], ["quarter1"]),
        helper.make_node("Concat", ["zeros1", "half1", "two1"], ["t2"], axis=0),
        helper.make_node("Concat", ["zeros1", "quarter1", "four1"], ["t4"], axis=0),
        helper.make_node("Reshape", ["y", "t2"], ["y2"]),
        helper.make_node("Reshape", ["y", "t4"], ["y4"]),
        helper.make_node("Slice", ["y2", "zeros1", "minus1", "one1"], ["chunks"]),
        helper.make_node("Reshape", ["y4", "t2b"], ["y4b"]),
        helper.make_node("Slice", ["y4b", "one1", "big", "one1"], ["later"]),
        helper.make_node("Shape", ["later"], ["lshape"]),
        helper.make_node("Expand", ["chunks", "lshape"], ["expanded"]),
        helper.make_node("Mul", ["b", "four"], ["count"]),
        helper.make_node("Unsqueeze", ["count", "zeros1"], ["count1"]),
        helper.make_node("ConstantOfShape", ["count1"], ["ones"], value=one),
        helper.make_node("NonZero", ["ones"], ["positions"]),
        helper.make_node("ConstantOfShape", ["count1"], ["zeros"]),
        helper.make_node("NonZero", ["zeros"], ["none"]),
    ]
    inits = {"zero": 0, "one": 1, "two": 2, "four": 4, "zeros1": [0], "zeros3": [0, 0, 0],
             "minus1": [-1], "two1": [2], "four1": [4], "one1": [1], "big": [2**62],
             "t2b": [0, -1, 2]}
    return _model(nodes, inits, {"expanded": TensorProto.FLOAT, "positions": TensorProto.INT64,
                                 "none": TensorProto.INT64})


def test_padded_chunks_and_an_arange_over_a_symbolic_length():
    model = _padded_model()
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("y2") == "[b, 2*((s + 3*s%4)//4), 2]"
    # (m//2 - 1 and 2*(m//4) - 1 were two values that may be 0 (at m = 0): no broadcast
    # of them was known; and m, a positive multiple of 4, is at least 4: no clamp at 0)
    assert sol.shape("chunks") == sol.shape("later") == sol.shape("expanded") == \
        "[b, 2*((s + 3*s%4)//4) - 1, 2]"
    assert sol.shape("positions") == "[1, 4*b]"
    assert sol.shape("none") == "[1, 0]"
    rng = np.random.default_rng(0)
    for b, s in ((1, 1), (2, 4), (3, 5), (1, 11), (2, 16)):
        assert_runtime_shapes(model, sol, {"x": rng.standard_normal((b, s)).astype(np.float32)})
