"""Rank polymorphism (encodings/rows.lp): tensors of unknown rank as rows `[n]@s@[c]`."""
from pathlib import Path

import pytest

import shape_logic
from shape_logic.errors import InputError
from shape_logic.shapes import parse_shape

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def graph(nodes, inputs=None, annotations=None, initializers=None):
    g = {"inputs": inputs or {"x": {"dtype": "f32"}}, "nodes": nodes}
    if annotations:
        g["annotations"] = annotations
    if initializers:
        g["initializers"] = initializers
    return g


def node(op, ins, out, **attrs):
    nd = {"name": out, "op": op, "inputs": ins, "outputs": [out]}
    if attrs:
        nd["attrs"] = attrs
    return nd


def parts(text):
    return parse_shape(text).parts


def test_softmax_on_unknown_rank_keeps_the_row():
    # Axon §6.4 with the Softmax operator: x: s@[a], y: s@[a]
    sol = shape_logic.solve(graph([node("Softmax", ["x"], "y")]))
    var, last = parts(sol.shape("x"))
    assert isinstance(var, str) and len(last) == 1 and not last[0].is_int
    assert sol.shape("y") == sol.shape("x")


def test_decomposed_softmax_example():
    # Axon §6.4 written out: the reductions are s@[1], everything else s@[a]
    sol = shape_logic.solve(str(EXAMPLES / "axon_softmax.json"))
    var, (a,) = parts(sol.shape("x"))
    for t in ("d", "e", "y"):
        assert sol.shape(t) == sol.shape("x")
    for t in ("m", "s"):
        assert sol.shape(t) == f"{var}@[1]"
    assert sol.status == "ok" and not a.is_int


def test_attention_example():
    # Axon §7.1: only S annotated [m, n], V of rank 2: Q [m, x], K [n, x], out [m, d]
    sol = shape_logic.solve(str(EXAMPLES / "axon_attention.json"))
    (m, x), = parts(sol.shape("Q"))
    (n, x2), = parts(sol.shape("K"))
    (n2, d), = parts(sol.shape("V"))
    assert (str(m), str(n), str(n2)) == ("m", "n", "n") and x == x2
    assert sol.shape("out") == f"[m, {d}]"


def test_annotated_row_keeps_the_users_names():
    g = graph([node("Relu", ["x"], "y")], annotations={"y": {"shape": "s@[a]"}})
    sol = shape_logic.solve(g)
    assert sol.shape("x") == "s@[a]" and sol.shape("y") == "s@[a]"


def test_leading_and_trailing_dims():
    g = graph([node("Exp", ["x"], "y")],
              inputs={"x": {"dtype": "f32", "shape": "[n]@s@[c]"}})
    assert shape_logic.solve(g).shape("y") == "[n]@s@[c]"


def test_shared_variable_relates_rows():
    # x: s@[a], y: s: y is x without its last axis, so Relu(y) is too
    g = graph([node("Relu", ["y"], "z")],
              inputs={"x": {"dtype": "f32", "shape": "s@[a]"}, "y": {"dtype": "f32", "shape": "s"}})
    assert shape_logic.solve(g).shape("z") == "s"


def test_row_closes_when_the_rank_becomes_known():
    g = graph([node("Softmax", ["x"], "y"), node("Transpose", ["y"], "t", perm=[1, 0])],
              inputs={"x": {"dtype": "f32", "shape": "s@[a]"}})
    sol = shape_logic.solve(g)
    (first, a), = parts(sol.shape("x"))
    assert str(a) == "a" and sol.shape("y") == sol.shape("x")
    assert sol.shape("t") == f"[a, {first}]"


def test_rank_too_small_for_the_row_is_an_error():
    g = graph([node("Transpose", ["x"], "t", perm=[0])],
              inputs={"x": {"dtype": "f32", "shape": "s@[a, b]"}})
    assert shape_logic.solve(g).status == "error"


def test_reduction_keepdims_0_drops_the_last_axes():
    g = graph([node("ReduceSum", ["x", "ax"], "y", keepdims=0)],
              inputs={"x": {"dtype": "f32", "shape": "s@[a, b]"}},
              initializers={"ax": {"dtype": "i64", "data": [-2, -1]}})
    assert shape_logic.solve(g).shape("y") == "s"


def test_reduction_of_an_inner_axis():
    g = graph([node("ReduceMax", ["x", "ax"], "y")],
              inputs={"x": {"dtype": "f32", "shape": "s@[a, b]"}},
              initializers={"ax": {"dtype": "i64", "data": [-2]}})
    assert shape_logic.solve(g).shape("y") == "s@[1, b]"


def test_broadcast_with_a_known_rank_operand():
    g = graph([node("Add", ["x", "b"], "y")],
              inputs={"x": {"dtype": "f32", "shape": "s@[n, 1]"}, "b": {"dtype": "f32",
                                                                       "shape": "[4]"}})
    assert shape_logic.solve(g).shape("y") == "s@[n, 4]"


def test_broadcast_of_two_unknown_rows_is_a_fresh_row():
    # nothing relates the rows of x and z: y's row is a fresh variable, never s or t
    g = graph([node("Add", ["x", "z"], "y")],
              inputs={"x": {"dtype": "f32", "shape": "s@[3]"}, "z": {"dtype": "f32",
                                                                    "shape": "t@[1]"}})
    var, last = parts(shape_logic.solve(g).shape("y"))
    assert var.startswith("_") and str(last[0]) == "3"


def test_matmul_on_rows():
    g = graph([node("MatMul", ["x", "w"], "y")],
              inputs={"x": {"dtype": "f32", "shape": "s@[m, k]"}, "w": {"dtype": "f32",
                                                                       "shape": "[k, n]"}})
    assert shape_logic.solve(g).shape("y") == "s@[m, n]"


def test_matmul_of_a_row_and_a_vector_is_left_open():
    # x may be a vector (y a scalar) or a matrix: nothing about y is printed as known
    g = graph([node("MatMul", ["x", "w"], "y")],
              inputs={"x": {"dtype": "f32"}, "w": {"dtype": "f32", "shape": "[k]"}})
    sol = shape_logic.solve(g)
    assert isinstance(parts(sol.shape("y"))[0], str) and "k" not in sol.shape("y")


def test_shared_variable_with_leading_dims_is_refused():
    g = graph([node("Relu", ["x"], "y")], inputs={"x": {"dtype": "f32", "shape": "[n]@s"}},
              annotations={"y": {"shape": "s@[n]"}})
    with pytest.raises(InputError):
        shape_logic.solve(g)


@pytest.mark.parametrize("eq, shapes, want", [
    ("...ij,...jk->...ik", ["s@[m, k]", "[k, n]"], "s@[m, n]"),
    ("...ij,...jk", ["s@[m, k]", "[k, n]"], "s@[m, n]"),
    ("...ij->...ji", ["s@[a, b]"], "s@[b, a]"),
    ("...i->...", ["s@[a]"], "s"),
])
def test_einsum_ellipsis_as_a_row(eq, shapes, want):
    g = graph([node("Einsum", [f"x{i}" for i in range(len(shapes))], "y", equation=eq)],
              inputs={f"x{i}": {"dtype": "f32", "shape": s} for i, s in enumerate(shapes)})
    assert shape_logic.solve(g).shape("y") == want


def test_einsum_on_unannotated_operands_links_single_letters():
    # i and k belong to one operand each: y's axes are x0's and x1's; j broadcasts
    g = graph([node("Einsum", ["x0", "x1"], "y", equation="...ij,...jk->...ik")],
              inputs={"x0": {"dtype": "f32"}, "x1": {"dtype": "f32"}})
    sol = shape_logic.solve(g)
    _, (i, _j) = parts(sol.shape("x0"))
    _, (_j2, k) = parts(sol.shape("x1"))
    _, (yi, yk) = parts(sol.shape("y"))
    assert (yi, yk) == (i, k)
