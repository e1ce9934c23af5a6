"""Bounds of products (symbolic/bounds.py, `_shifted_lower`): the normal form expands a
product of differences, and intervals of its terms lose what the factors share. BEiT's
relative position table is Resized to (2*(h//8) - 1) x (2*(w//8) - 1) positions and
reshaped to [their product, heads]: under the floors its patch convolution gives (h, w >= 8)
the product is >= 1, a size of the Reshape, and its -1 the heads."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.asp.floors import Floors
from shape_logic.symbolic.bounds import bounds
from shape_logic.symbolic.parse import parse_dim

from ..onnx_graphs import assert_runtime_shapes

PRODUCT = "(2*(h//8) - 1)*(2*(w//8) - 1)"


def test_a_product_of_factors_at_least_one_is_at_least_one():
    assert bounds(parse_dim("(2*a - 1)*(2*b - 1)"))[0] == 1
    assert bounds(parse_dim("(a - 1)*(b - 1) + 3"))[0] == 3
    assert bounds(parse_dim("a*a - 2*a + 1"))[0] == 0  # (a - 1)^2 around a = 1
    assert Floors({"h": 8, "w": 8}).bounds(parse_dim(PRODUCT))[0] == 1


def test_a_product_that_may_be_negative_is_not_bounded():
    # at h < 8 <= w the product is negative
    assert bounds(parse_dim(PRODUCT))[0] < 0
    assert bounds(parse_dim("(a - 2)*(b - 1)"))[0] < 0


linear = st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-4, 4))


@settings(max_examples=300, deadline=None)
@given(st.lists(linear, min_size=2, max_size=3), st.integers(-5, 5),
       st.integers(1, 30), st.integers(1, 30))
def test_the_bound_of_a_product_holds(factors, c, a, b):
    """A product of linear forms in a and b//3, plus c: its lower bound is at most its value."""
    text = "*".join(f"({x}*a + {y}*(b//3) + {z})" for x, y, z in factors) + f" + {c}"
    e = parse_dim(text.replace("+ -", "- "))
    prod = 1
    for x, y, z in factors:
        prod *= x * a + y * (b // 3) + z
    assert bounds(e)[0] <= prod + c


def _relative_table_model():
    """x [b, 3, h, w] through a convolution of 8 x 8 by 8 (h, w >= 8); a [1, 4, 3, 3] table
    Resized to (2*(h//8) - 1) x (2*(w//8) - 1), transposed to [1, ., ., 4] and reshaped to
    [product + 3 - 3, -1], the product computed from the Shape of x as BEiT exports it."""
    nodes, inits = [], []

    def const(name, value, dtype=np.int64):
        inits.append(numpy_helper.from_array(np.asarray(value, dtype), name))
        return name

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    const("w", np.ones((4, 3, 8, 8)), np.float32)
    const("table", np.ones((1, 4, 3, 3)), np.float32)
    node("Conv", ["x", "w"], "y", strides=[8, 8])
    node("Shape", ["x"], "shape")
    sides = []
    for i, axis in enumerate((2, 3)):
        d = node("Div", [node("Gather", ["shape", const(f"axis{i}", axis)], f"g{i}", axis=0),
                         const(f"eight{i}", 8)], f"d{i}")
        sides.append(node("Sub", [node("Mul", [d, const(f"two{i}", 2)], f"twice{i}"),
                                  const(f"one{i}", 1)], f"side{i}"))
    ups = [node("Unsqueeze", [s, const(f"at{i}", [0])], f"up{i}") for i, s in enumerate(sides)]
    node("Concat", [const("lead", [1, 4])] + ups, "sizes", axis=0)
    node("Resize", ["table", "", "", "sizes"], "r", mode="linear")
    node("Transpose", ["r"], "t", perm=[0, 2, 3, 1])
    p = node("Sub", [node("Add", [node("Mul", sides, "p"), const("three", 3)], "p3"),
                     const("three_", 3)], "p0")
    node("Concat", [node("Unsqueeze", [p, const("at", [0])], "pu"), const("minus1", [-1])],
         "target", axis=0)
    node("Reshape", ["t", "target"], "out")
    graph = helper.make_graph(
        nodes, "relative_table",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 3, "h", "w"])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in ("out", "y")],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_a_relative_position_table_reshaped_to_its_size():
    model = _relative_table_model()
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.to_json()["floors"] == {"h": 8, "w": 8}
    assert sol.shape("out") == "[4*(h//8)*(w//8) - 2*(h//8) - 2*(w//8) + 1, 4]"
    rng = np.random.default_rng(0)
    for h, w in ((8, 8), (9, 23), (16, 15), (31, 40)):
        feed = {"x": rng.standard_normal((1, 3, h, w)).astype(np.float32)}
        assert_runtime_shapes(model, sol, feed)


@pytest.mark.parametrize("h", [1, 7])
def test_below_the_floor_the_graph_does_not_run(h):
    """(the floor is the graph's: at h < 8 the convolution and the Resize both fail)"""
    import onnxruntime as ort

    session = ort.InferenceSession(_relative_table_model().SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    with pytest.raises(Exception):
        session.run(None, {"x": np.zeros((1, 3, h, 16), np.float32)})


def test_bounds_of_nested_floor_divisions_refine_within_a_budget():
    """Each refinement on a floor division bounds two expressions, which refine on the
    divisions nested in it: 2^depth bounds without a budget (fuzz ops seed 511, graph 358:
    4,000 per call, past 100 s for the solve). The budget keeps it fast and sound."""
    e = parse_dim("s")
    for _ in range(12):  # (the deepest nesting expressions allow)
        e = parse_dim(f"s*(({e} + 3)//4) + ({e})//4 + 1")
    lo, hi = bounds(e)
    for s in (1, 2, 7):
        v = eval(str(e).replace("s", str(s)))  # floored division as Python's
        assert lo <= v <= hi


@pytest.mark.parametrize("big, small", [
    ("((h + 1)//2)*((w + 1)//2)", "(h//2)*(w//2)"),  # HF Hiera's patches and positions
    ("3*h*((w + 1)//2)", "2*h*(w//2)"),
    ("((h + 1)//2)*((h + 1)//2)", "(h//2)*(h//2)"),  # a power: each factor paired once
])
def test_a_max_of_products_keeps_the_one_whose_factors_bound_the_other_s(big, small):
    """bounds.factors_at_least: c*x1*..*xk >= d*y1*..*yk where c >= d >= 0 and each y >= 0 is
    at most its x, which the difference's interval cannot tell. Checked at every value."""
    from shape_logic.symbolic import ops
    from shape_logic.symbolic.expr import Expr

    b, s = parse_dim(big), parse_dim(small)
    assert ops.maximum(b, s) == b and ops.maximum(s, b) == b
    assert ops.minimum(b, s) == s
    for h in range(1, 30):
        for w in range(1, 12):
            at = {"h": Expr.const(h), "w": Expr.const(w)}
            assert b.subs(at).value >= s.subs(at).value


@pytest.mark.parametrize("x, y", [
    ("h*w", "2*h"),              # another number of factors
    ("(h//2)*w", "h*(w//2)"),    # neither pairing bounds the other
    ("h*(w//3)", "2*(h//2)*w"),  # either is the greater somewhere (h = 1; h = 2, w = 3)
])
def test_products_neither_of_whose_factors_bound_the_other_s_stay_in_a_max(x, y):
    from shape_logic.symbolic import ops

    a, b = parse_dim(x), parse_dim(y)
    assert str(ops.maximum(a, b)).startswith("max(")
    assert str(ops.minimum(a, b)).startswith("min(")
