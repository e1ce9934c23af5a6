"""Div: rules/Div.lp on data cases, and against onnx's reference on random shapes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case, random_array

from .elementwise import LEGACY_BINARY_CASES, arithmetic_cases, operand_shapes
from .values import i64, values_test

OPSET = 18
DEFAULT_ATTRS = None
CASES = {**arithmetic_cases("i32"), **LEGACY_BINARY_CASES}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("Div", {"opset": OPSET, "attrs": DEFAULT_ATTRS, **spec}, expected)


VALUE_CASES = {
    "constants": ([i64(8, 9), i64(2, 3)], None, (), "[4, 3]"),
    "integers truncate toward zero": ([i64(-7), i64(2)], None, ("Neg",), "[3]"),
    "symbolic": (["[b, 768]", i64(1, 12)], None, (), "[b, 64]"),
    "int8 quotients": ([np.array([9], np.int8), np.array([3], np.int8)], None, (), "[3]"),
    "division by zero: unknown": ([i64(8), i64(0)], None, (), None),
}


test_values = values_test("Div", VALUE_CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64"]))
def test_matches_reference(shapes, dtype):
    a, b = (random_array(s, dtype) for s in shapes)
    if dtype.startswith("i"):
        b = b + 1  # integer division by zero is undefined
    check_against_reference("Div", [a, b], opset=OPSET)


def _quotient_of_a_length(op, k, conv, **attrs):
    """x : [b, 1, n]; the length n - 2 (of a Conv over x with a kernel of 3, or Sub(n, 2),
    no tensor's dim) `op` k, as the size of a ConstantOfShape z."""
    from onnx import TensorProto, helper

    from ..onnx_graphs import _Builder

    g = _Builder()
    if conv:
        w = g.const(np.ones((1, 1, 3)), np.float32)
        length = g.dim(g.op("Conv", "x", w), 2)
    else:
        length = g.op("Sub", g.dim("x", 2), g.const(2))
    size = g.op(op, length, g.const(k), **attrs)
    z = g.op("ConstantOfShape", g.op("Unsqueeze", size, g.const([0])))
    g.nodes.append(helper.make_node("Identity", [z], ["z"], name="out"))
    graph = helper.make_graph(
        g.nodes, "quotient", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 1, "n"])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)], initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize("op, k, conv, attrs, want", [
    # n - 2 is a dim of the Conv's output, so >= 0 wherever the graph runs: its quotient
    # truncated toward zero is the floored one, though bounds (n >= 1) allow -1. Wav2Vec2's
    # length `((len//80 + 1)//2 + 1)//2 - 1` halved by SEW-D was a fresh name
    ("Div", 2, True, {}, "[n//2 - 1]"),
    ("Mod", 3, True, {"fmod": 1}, "[(n + 1)%3]"),
    # Sub(n, 2) is no tensor's dim: at n = 1 Div gives 0 (trunc(-1/2)), the floor -1; the
    # truncated quotient is max(0, x)//k - max(0, -x)//k, the remainder x less k times it
    ("Div", 2, False, {}, "[max(0, n - 2)//2 - max(0, 2 - n)//2]"),
    ("Mod", 3, False, {"fmod": 1}, "[n + 3*(max(0, 2 - n)//3) - 3*(max(0, n - 2)//3) - 2]"),
])
def test_a_dim_is_a_dividend_at_least_zero(op, k, conv, attrs, want):
    """Checked against onnxruntime at n = 1..9 wherever it runs (a Conv needs n >= 3; at
    n = 1 fmod(-1, 3) is -1, no size)."""
    from shape_logic.symbolic.expr import Expr

    ort = pytest.importorskip("onnxruntime")
    model = _quotient_of_a_length(op, k, conv, **attrs)
    sol = solve(model)
    assert sol.status == "ok"
    assert sol.shape("z") == want
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    ran = 0
    for n in range(1, 10):
        try:
            (z,) = sess.run(None, {"x": np.zeros((1, 1, n), np.float32)})
        except Exception:  # (no size: see above)
            continue
        ran += 1
        assert z.shape == (sol.dims("z")[0].subs({"n": Expr.const(n)}).value,)
    assert ran == (7 if conv else 9 if op == "Div" else 8)
