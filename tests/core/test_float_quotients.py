"""Ceil and Floor of a float quotient x / c of an integer element by a positive integer
constant (rules/Ceil.lp, rules/Floor.lp): the quotient is no integer, so floats.lp does not
follow it, but its rounding (at most |x / c| * 2^-24 in f32) cannot cross an integer while
|x| < 2^24. MobileViT rounds its feature maps up to whole 2 x 2 patches as
ceil(h / 2.0) * 2 and pads to it. Checked against onnxruntime."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve

from ..onnx_graphs import assert_runtime_shapes


def _model(op: str, divisor: float, dtype=TensorProto.FLOAT, length=None, shift=None):
    """x [b, h]: y = x padded at the end of axis 1 to op(h / divisor) * divisor - with
    `length`, the same of a constant h = length as a Range's length instead; with `shift`,
    op(h / divisor + shift) * divisor."""
    def const(name, value, dt=np.int64):
        return numpy_helper.from_array(np.asarray(value, dt), name)

    np_dtype = np.float32 if dtype == TensorProto.FLOAT else np.float64
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "one"], ["h"], axis=0),
        helper.make_node("Cast", ["h" if length is None else "n"], ["hf"], to=dtype),
        helper.make_node("Div", ["hf", "c"], ["q"]),
        *([] if shift is None else [helper.make_node("Add", ["q", "k"], ["qk"])]),
        helper.make_node(op, ["q" if shift is None else "qk"], ["r"]),
        helper.make_node("Mul", ["r", "c"], ["nh"]),
        helper.make_node("Cast", ["nh"], ["size"], to=TensorProto.INT64),
    ]
    if length is None:
        nodes += [
            helper.make_node("Sub", ["size", "h"], ["pad"]),
            helper.make_node("Unsqueeze", ["pad", "zero1"], ["pad1"]),
            helper.make_node("Concat", ["zeros3", "pad1"], ["pads"], axis=0),
            helper.make_node("Pad", ["x", "pads"], ["y"]),
        ]
    else:
        nodes.append(helper.make_node("Range", ["zero", "size", "one"], ["y"]))
    out_type = TensorProto.FLOAT if length is None else TensorProto.INT64
    graph = helper.make_graph(
        nodes, "quotient", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "h"])],
        [helper.make_tensor_value_info("y", out_type, None)],
        [const("zero", 0), const("one", 1), const("zero1", [0]), const("zeros3", [0, 0, 0]),
         const("c", divisor, np_dtype), const("n", length or 0),
         const("k", shift or 0, np_dtype)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("op, divisor, dtype, shape", [
    ("Ceil", 2.0, TensorProto.FLOAT, "[b, 2*((h + 1)//2)]"),
    ("Ceil", 3.0, TensorProto.DOUBLE, "[b, 3*((h + 2)//3)]"),
    ("Floor", 4.0, TensorProto.FLOAT, "[b, h]"),   # (a negative pad crops to 4*(h//4))
])
def test_rounding_a_float_quotient_of_a_size(op, divisor, dtype, shape):
    model = _model(op, divisor, dtype)
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("size") == "[]" and sol.shape("y") == shape.replace(
        "[b, h]", "[b, 4*(h//4)]")
    for h in range(4, 13):
        assert_runtime_shapes(model, sol, {"x": np.zeros((2, h), np.float32)})


@pytest.mark.parametrize("length, divisor, want", [
    (16777215, 2.0, 16777216),    # below 2^24: 8388607.5 is a float32, rounded up
    (16777213, 4.0, 16777216),
    (10, 3.0, 12),
    (2**25 + 4, 8.0, 2**25 + 8),  # (past 2^24: the quotient of known floats, as float32 has it)
])
def test_known_integers_below_two_to_the_24(length, divisor, want):
    sol = solve(_model("Ceil", divisor, length=length))
    assert sol.shape("y") == f"[{want}]"
    # (float32 itself: what onnxruntime computes)
    q = np.float32(length) / np.float32(divisor)
    assert int(np.ceil(q)) * int(divisor) == want


@pytest.mark.parametrize("op, divisor, shift, dtype, shape", [
    # EnCodec's padding to whole strides: ceil((length - kernel + pad) / stride + 1)
    ("Ceil", 2.0, 1.0, TensorProto.FLOAT, "[b, 2*((h + 1)//2) + 2]"),
    ("Ceil", 3.0, -2.0, TensorProto.DOUBLE, "[b, 3*((h + 2)//3) - 6]"),
    ("Floor", 4.0, 1.0, TensorProto.FLOAT, "[b, 4*(h//4) + 4]"),
])
def test_rounding_a_float_quotient_of_a_size_plus_an_integer(op, divisor, shift, dtype, shape):
    model = _model(op, divisor, dtype, shift=shift)
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("y") == shape
    for h in range(6, 15):
        assert_runtime_shapes(model, sol, {"x": np.zeros((2, h), np.float32)})


def test_a_shift_too_large_to_bound_the_rounding_leaves_the_size_open():
    """ceil(h / 3.0 + 4096.0): the sum's rounding is not bounded below 1/3 (|k|c >= 2^22 is
    possible within the rule's limits only through k > 1024): no value."""
    sol = solve(_model("Ceil", 3.0, shift=4096.0))
    assert sol.shape("size") == "[]" and sol.shape("y").startswith("[b, _")
