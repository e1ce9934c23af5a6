"""Longformer's sliding-window attention as the legacy exporter writes it: the sequence padded
to a multiple of the window (m = s + 3*s%4, for a window of 4), chunks of half a window
(m//2 beside 2*(m//4), one number), and aranges over symbolic lengths as
NonZero(ConstantOfShape([n], 1)). Each graph is checked against onnxruntime."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.symbolic import ops
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



@pytest.mark.parametrize("text, simplest", [
    ("min(2, s + 3*s%4)", "2"),                  # a padded length >= 1 is >= 4
    ("max(4, s + 3*s%4)", "s + 3*s%4"),
    ("max(3, s + 3*s%4)", "s + 3*s%4"),
    ("min(5, s + 3*s%4)", "min(5, s + 3*s%4)"),  # 4 or 8 or more: either may be less
    ("min(8, s + 7*s%8 + 1)", "8"),               # 1 modulo 8 and at least 2: >= 9
    ("max(1, s + 3*s%4 - 3)", "s + 3*s%4 - 3"),  # 1 modulo 4, at least 1
    ("min(3, 2*s + 2*s%4)", "3"),                # 4*s modulo 4: a multiple of 4 too
    ("min(1, s + s%2)", "1"),
])
def test_an_integer_against_a_padded_length_by_its_residue(text, simplest):
    # LED's and Longformer's attention windows: min(2, that length) stayed a constraint
    # (`= 2`) and cost the model a second solve; an integer beside a length whose residue
    # modulo M is fixed compares by that residue (2 - m is 2 modulo 4 and at most 1)
    e = parse_dim(text)
    for s in range(1, 40):
        assert eval(text.replace("s", str(s))) == e.subs({"s": parse_dim(str(s))}).value
        assert parse_dim(simplest).subs({"s": parse_dim(str(s))}).value == \
            e.subs({"s": parse_dim(str(s))}).value, (text, s)
    assert str(e) == simplest

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


@pytest.mark.parametrize("text, c, canonical", [
    # (h + 2*h%3)*(w + 2*w%3), two lengths padded to whole windows of 3, expanded
    ("(h + 2*h%3)*(w + 2*w%3)", 9, "((h + 2*h%3)//3)*((w + 2*w%3)//3)"),
    ("(h + 2*h%3)*(w + 2*w%3)", 3, "3*((h + 2*h%3)//3)*((w + 2*w%3)//3)"),
    ("(h + 2*h%3)*(w + 2*w%3)", 27, "((h + 2*h%3)//3)*((w + 2*w%3)//3)//3"),
    ("(s + 3*s%4)*(t + 7*t%8)", 8, "4*((s + 3*s%4)//4)*((t + 7*t%8)//8)"),
    ("b*s + b*(3*s%4)", 4, "b*((s + 3*s%4)//4)"),
    ("(h + 2*h%3)*(w + 2*w%3)", 2, "9*((h + 2*h%3)//3)*((w + 2*w%3)//3)//2"),
    ("4*b*(h + 2*h%3)*(w + 2*w%3)", "36*((h + 2*h%3)//3)*((w + 2*w%3)//3)", "b"),
    ("(h + h%3)*w", 3, None),               # h + h%3 is no multiple of 3
])
def test_a_product_of_padded_lengths_divided_by_their_window(text, c, canonical):
    e, d = parse_dim(text), parse_dim(str(c))
    q = ops.floordiv(e, d)
    assert str(q) == (canonical or f"({e})//{c}")
    for h, w, s, t, b in itertools.product(range(1, 10), range(1, 8), (1, 2, 5), (1, 6, 9),
                                           (1, 3)):
        env = {k: parse_dim(str(v)) for k, v in dict(h=h, w=w, s=s, t=t, b=b).items()}
        assert q.subs(env).value == e.subs(env).value // d.subs(env).value


def _windows_model():
    """ViTDet's window partition: x [b, h, w, 4] padded to whole windows of 3 (Hp = h +
    (-h)%3, Wp alike), cut into [b*(Hp/3)*(Wp/3), 3, 3, 4] windows and put back together
    as [n // (Hp*Wp//3//3), Hp//3, Wp//3, 3, 3, -1], the batch recomputed from the windows."""
    def padded(axis):
        return [
            helper.make_node("Gather", ["shape", f"axis{axis}"], [f"n{axis}"], axis=0),
            helper.make_node("Neg", [f"n{axis}"], [f"neg{axis}"]),
            helper.make_node("Mod", [f"neg{axis}", "three"], [f"pad{axis}"]),
            helper.make_node("Add", [f"n{axis}", f"pad{axis}"], [f"p{axis}"]),
            helper.make_node("Div", [f"p{axis}", "three"], [f"k{axis}"]),
            helper.make_node("Unsqueeze", [f"pad{axis}", "zeros1"], [f"pad{axis}_1"]),
            helper.make_node("Unsqueeze", [f"k{axis}", "zeros1"], [f"k{axis}_1"]),
        ]
    nodes = [helper.make_node("Shape", ["x"], ["shape"]), *padded(1), *padded(2),
             helper.make_node("Concat", ["zeros4", "zeros1", "pad1_1", "pad2_1", "zeros1"],
                              ["pads"], axis=0),
             helper.make_node("Pad", ["x", "pads"], ["xp"]),
             helper.make_node("Concat", ["minus1", "k1_1", "three1", "k2_1", "three1", "four1"],
                              ["cut"], axis=0),
             helper.make_node("Reshape", ["xp", "cut"], ["cells"]),
             helper.make_node("Transpose", ["cells"], ["cellsT"], perm=[0, 1, 3, 2, 4, 5]),
             helper.make_node("Reshape", ["cellsT", "flat"], ["windows"]),
             helper.make_node("Shape", ["windows"], ["wshape"]),
             helper.make_node("Gather", ["wshape", "zero"], ["n"], axis=0),
             helper.make_node("Mul", ["p1", "p2"], ["area"]),
             helper.make_node("Div", ["area", "three"], ["area3"]),
             helper.make_node("Div", ["area3", "three"], ["count"]),
             helper.make_node("Div", ["n", "count"], ["batch"]),
             helper.make_node("Unsqueeze", ["batch", "zeros1"], ["batch1"]),
             helper.make_node("Concat", ["batch1", "k1_1", "k2_1", "three1", "three1", "minus1"],
                              ["back"], axis=0),
             helper.make_node("Reshape", ["windows", "back"], ["y"])]
    graph = helper.make_graph(
        nodes, "windows",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "h", "w", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in {
            "zero": 0, "axis1": 1, "axis2": 2, "three": 3, "zeros1": [0], "zeros4": [0] * 4,
            "minus1": [-1], "three1": [3], "four1": [4], "flat": [-1, 3, 3, 4]}.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_the_batch_recomputed_from_windows_of_padded_lengths():
    """n // (Hp*Wp//3//3): the product of the padded lengths divided twice by 3 is the
    product of their window counts, which divides the windows' count exactly (it was an
    atom of the expanded product, and the batch and channels were fresh names)."""
    model = _windows_model()
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("y") == "[b, (h + 2*h%3)//3, (w + 2*w%3)//3, 3, 3, 4]"
    rng = np.random.default_rng(0)
    for b, h, w in ((1, 3, 3), (2, 4, 7), (1, 8, 5), (3, 9, 10)):
        x = rng.standard_normal((b, h, w, 4)).astype(np.float32)
        assert_runtime_shapes(model, sol, {"x": x})


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 3), st.integers(0, 7), st.integers(2, 8), st.integers(-9, 9),
       st.integers(-12, 12), st.sampled_from(["min", "max"]), st.booleans())
def test_an_integer_against_a_length_of_fixed_residue_is_sound(a, k, m, c0, n, kind, flip):
    # min/max(n, a*s + (k*s)%m + c0) as the arithmetic writes it, against Python's value
    # at every s: the residue comparison (bounds.to_residues) may only drop an argument
    # that is never the one taken
    text = f"{kind}({n}, {a}*s + ({k}*s)%{m} + {c0})" if not flip else \
        f"{kind}({a}*s + ({k}*s)%{m} + {c0}, {n})"
    e = parse_dim(text)
    for s in range(1, 3 * m + 20):
        assert e.subs({"s": parse_dim(str(s))}).value == eval(text.replace("s", str(s))), \
            (text, str(e), s)
