"""A floor division of a floor division plus the rest, (x//d + R)//c, is one division,
(x + d*R)//(d*c) (symbolic/ops._merged_floor): one spelling of each value.

Found on PoolFormer exported by torch.export: its strided windows give
((((h + 1)//4 + 1)//2 + 1)//2 + 1)//2 and the exporter declares the output as
(h - 3)//32 + 1, the same value; the solve said the declaration "would require" their
equation (and set it aside, with a warning), although it holds for every h."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto, helper, numpy_helper

from shape_logic.solver import solve
from shape_logic.symbolic import Expr, ops, parse_dim, relate
from shape_logic.symbolic.values import function_of


def test_a_chain_of_strided_windows_is_one_division():
    chain = parse_dim("((((h + 1)//4 + 1)//2 + 1)//2 + 1)//2")
    assert str(chain) == "(h + 29)//32"
    assert chain == parse_dim("(h - 3)//32 + 1")  # (as torch.export declares it)
    assert relate(chain, parse_dim("(h - 3)//32 + 1")).kind == "same"
    assert str(parse_dim("((s//80 + 1)//2 + 1)//2 - 1")) == "(s + 240)//320 - 1"


def test_a_lone_division_of_a_division_merges_whatever_its_size():
    """floor(floor(x/d)/c) = floor(x/(d*c)) held before the merge of a rest R, with no
    bound on d*c and over any x: the bound that stops a cycle growing its divisor with an
    R does not apply without one."""
    assert str(parse_dim("(h//80)//16")) == "h//1280"
    assert str(parse_dim("((h//4 + w//4)//2)//2")) == "(h//4 + w//4)//4"


def test_two_floors_keep_their_own_divisions():
    # (merging either would make the other's a multiple inside: no simpler)
    assert str(parse_dim("(h//4 + w//4)//2")) == "(h//4 + w//4)//2"
    # a multiple of a floor: the quotient's part stays apart, the remainder's merges
    e = parse_dim("(3*(h//4) + 1)//2")
    assert str(e) == "h//4 + (h + 4)//8"
    assert all(function_of(e, "h")(h) == (3 * (h // 4) + 1) // 2 for h in range(1, 80))


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(1, 9), st.integers(-7, 7), st.integers(-2, 3)),
                      min_size=1, max_size=5),
       shift=st.integers(-20, 5))
def test_merged_divisions_equal_python_s_floors(steps, shift):
    """Nested divisions ((x//d + b + k*w)//d2 ...) of x = h + shift (negative too), merged
    or not, evaluate to what Python's floor division gives, at h, w in 1..40."""
    e = parse_dim("h") + shift
    fns = [lambda h, w: h + shift]
    for d, b, k in steps:
        e = ops.floordiv(e + b + parse_dim("w") * k, Expr.const(d))
        fns.append(lambda h, w, f=fns[-1], d=d, b=b, k=k: (f(h, w) + b + k * w) // d)
    for h in range(1, 41, 3):
        for w in range(1, 41, 7):
            assert e.subs({"h": Expr.const(h), "w": Expr.const(w)}).value == fns[-1](h, w)
    if "w" not in e.symbols():
        f = function_of(e, "h")
        assert all(f(h) == fns[-1](h, 1) for h in range(1, 60))


def _strided_model(declared):
    """x [batch, 3, h, w] through a 7x7 window at stride 4 (padding 2) and three 3x3 at
    stride 2 (padding 1), as PoolFormer's stages, its output declared `declared`."""
    rng = np.random.default_rng(0)
    nodes, inits, prev = [], [], "x"
    for i, (k, s, p) in enumerate([(7, 4, 2), (3, 2, 1), (3, 2, 1), (3, 2, 1)]):
        w = f"w{i}"
        c = 3 if i == 0 else 4
        inits.append(numpy_helper.from_array(
            rng.standard_normal((4, c, k, k)).astype(np.float32), w))
        out = "y" if i == 3 else f"t{i}"
        nodes.append(helper.make_node("Conv", [prev, w], [out], name=f"conv{i}",
                                      kernel_shape=[k, k], strides=[s, s], pads=[p] * 4))
        prev = out
    f32 = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes, "strided", [helper.make_tensor_value_info("x", f32, ["batch", 3, "h", "w"])],
        [helper.make_tensor_value_info("y", f32, declared)], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_torch_export_s_declaration_of_the_windows_is_the_graph_s_own():
    model = _strided_model(["batch", 4, "((h - 3)//32) + 1", "((w - 3)//32) + 1"])
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    assert sol.shape("y") == "[batch, 4, (h + 29)//32, (w + 29)//32]"
    assert sol.shape("t0") == "[batch, 4, (h + 1)//4, (w + 1)//4]"


@pytest.mark.parametrize("h,w", [(3, 3), (32, 45), (61, 33)])
def test_the_windows_run_as_the_shape_says(h, w):
    ort = pytest.importorskip("onnxruntime")
    model = _strided_model(["batch", 4, "((h - 3)//32) + 1", "((w - 3)//32) + 1"])
    x = np.zeros((2, 3, h, w), np.float32)
    got = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})[0]
    assert got.shape == (2, 4, (h + 29) // 32, (w + 29) // 32)
