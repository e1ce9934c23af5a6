"""Declared outputs that give a dim the rules leave open (shape_logic/data_sizes.py,
`unsized` in encodings/schema.lp): a Resize whose floor float rounding decides, OneHot's
depth from data. A traced size there holds at the traced size only: it is set aside, with
one solve more; a model whose declarations give no such dim is solved once."""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve, solver

F = TensorProto.FLOAT
_CONTROL = solver.Problem.control


def _model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def _resize(scale: float, declared: list):
    """x [n, 3, h, 10] resized by `scale` on its last axis, y declared `declared`."""
    scales = numpy_helper.from_array(np.array([1, 1, 1, scale], np.float32), "scales")
    return _model([helper.make_node("Resize", ["x", "", "scales"], ["y"])],
                  [helper.make_tensor_value_info("x", F, ["n", 3, "h", "w"])],
                  [helper.make_tensor_value_info("y", F, declared)], [scales])


def _solves(monkeypatch) -> list:
    made = []

    def counted(self, *args, **kwargs):
        made.append(1)
        return _CONTROL(self, *args, **kwargs)

    monkeypatch.setattr(solver.Problem, "control", counted)
    return made


def test_a_traced_size_of_a_resize_by_an_inexact_scale_is_set_aside(monkeypatch):
    # 0.7 is a little below 7/10 in f32: w * 0.7 floors as onnxruntime computes it only
    # where the rounding cannot change it, and the graph leaves the axis open. Declared 7
    # (the size traced at w = 10) it was kept, and printed: wrong at w = 20 (14)
    sol = solve(_resize(0.7, ["n", 3, "h", 7]))
    assert sol.status == "ok" and list(sol.set_aside) == ["y"]
    assert sol.shape("y") == "[n, 3, h, _1]"
    assert "which would give axis 3 = 7 that the graph leaves open" in sol.warnings[0]
    # an input's name there is a traced claim too
    sol = solve(_resize(0.7, ["n", 3, "h", "h"]))
    assert list(sol.set_aside) == ["y"] and sol.shape("y") == "[n, 3, h, _1]"
    # a name of its own says nothing: kept, and solved once
    made = _solves(monkeypatch)
    sol = solve(_resize(0.7, ["n", 3, "h", "y_w"]))
    assert sol.shape("y") == "[n, 3, h, y_w]" and not sol.warnings and len(made) == 1


def test_a_resize_by_an_exact_scale_is_solved_once(monkeypatch):
    made = _solves(monkeypatch)
    sol = solve(_resize(1.5, ["n", 3, "h", "3*w//2"]))
    assert sol.shape("y") == "[n, 3, h, 3*w//2]" and not sol.warnings and len(made) == 1


def _onehot(declared: list):
    """OneHot of i [n] by a depth the input `depth` holds: y declared `declared`."""
    values = numpy_helper.from_array(np.array([0, 1], np.float32), "values")
    return _model([helper.make_node("OneHot", ["i", "depth", "values"], ["y"])],
                  [helper.make_tensor_value_info("i", TensorProto.INT64, ["n"]),
                   helper.make_tensor_value_info("depth", TensorProto.INT64, [1])],
                  [helper.make_tensor_value_info("y", F, declared)], [values])


def test_a_declared_depth_of_a_one_hot_by_data_is_set_aside():
    for declared, given in ((["n", 10], "10"), (["n", "n"], "n")):
        sol = solve(_onehot(declared))
        assert sol.status == "ok" and sol.shape("y") == "[n, _c1]", sol.shape("y")
        assert f"which would give axis 1 = {given} that the graph leaves open" in \
            sol.warnings[0]
    sol = solve(_onehot(["n", "classes"]))
    assert sol.shape("y") == "[n, classes]" and not sol.warnings


def test_a_one_hot_by_a_constant_depth_is_solved_once(monkeypatch):
    depth = numpy_helper.from_array(np.array([10], np.int64), "depth")
    values = numpy_helper.from_array(np.array([0, 1], np.float32), "values")
    m = _model([helper.make_node("OneHot", ["i", "depth", "values"], ["y"])],
               [helper.make_tensor_value_info("i", TensorProto.INT64, ["n"])],
               [helper.make_tensor_value_info("y", F, ["n", 10])], [depth, values])
    made = _solves(monkeypatch)
    sol = solve(m)
    assert sol.shape("y") == "[n, 10]" and not sol.warnings and len(made) == 1


def test_a_traced_size_computed_from_an_open_axis_is_set_aside():
    # the traced size reaches the Resize's open axis only forward: a Pad gives nothing
    # back, so the open axis keeps a fresh name in the solve with the declaration, and
    # the output's 10 (7 + 3 at w = 10) came from the declaration alone
    scales = numpy_helper.from_array(np.array([1, 1, 1, 0.7], np.float32), "scales")
    pads = numpy_helper.from_array(np.array([0, 0, 0, 1, 0, 0, 0, 2], np.int64), "pads")
    m = _model([helper.make_node("Resize", ["x", "", "scales"], ["r"]),
                helper.make_node("Pad", ["r", "pads"], ["y"])],
               [helper.make_tensor_value_info("x", F, ["n", 3, "h", "w"])],
               [helper.make_tensor_value_info("y", F, ["n", 3, "h", 10])], [scales, pads])
    sol = solve(m)
    assert sol.status == "ok" and list(sol.set_aside) == ["y"]
    assert sol.shape("r") == "[n, 3, h, _1]" and sol.shape("y") == "[n, 3, h, _2]"


def test_an_unnamed_input_dim_is_no_open_axis(monkeypatch):
    # x [?, 3]: the fresh name is the input's own size, given; y declared [?, 3] is solved
    # once
    m = _model([helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Relu", ["r"], ["y"])],
               [helper.make_tensor_value_info("x", F, [None, 3])],
               [helper.make_tensor_value_info("y", F, [None, 3])])
    made = _solves(monkeypatch)
    sol = solve(m)
    assert sol.shape("y") == "[_1, 3]" and not sol.warnings and len(made) == 1


def _sized_by(op: str, declared: list, repeats_from_input: bool):
    """x [n, 12] Tiled (or Expanded) by a vector `s` an input holds, or Shape(x)."""
    nodes = [helper.make_node(op, ["x", "s"], ["y"])]
    inputs = [helper.make_tensor_value_info("x", F, ["n", 12])]
    if repeats_from_input:
        inputs.append(helper.make_tensor_value_info("s", TensorProto.INT64, [2]))
    else:
        nodes.insert(0, helper.make_node("Shape", ["x"], ["s"]))
    return _model(nodes, inputs, [helper.make_tensor_value_info("y", F, declared)])


def test_a_traced_size_decided_by_values_an_input_holds_is_set_aside(monkeypatch):
    # a Tile by repeats an input holds, declared with the sizes traced: [4, 12] held
    # for repeats [4, 1] only, and nothing in the solve said the graph leaves it open
    # (the repeats are names of their own: counts.lp's size_read)
    sol = solve(_sized_by("Tile", [4, 12], repeats_from_input=True))
    assert list(sol.set_aside) == ["y"] and sol.shape("y") == "[_c1*n, 12*_c2]"
    sol = solve(_sized_by("Expand", ["n", 12], repeats_from_input=True))
    assert list(sol.set_aside) == ["y"] and sol.shape("y") == "[_1, 12]"
    # repeats computed from shapes: the graph gives the sizes, solved once
    made = _solves(monkeypatch)
    sol = solve(_sized_by("Tile", ["n*n", 144], repeats_from_input=False))
    assert sol.shape("y") == "[n*n, 144]" and not sol.warnings and len(made) == 1


def test_a_name_for_a_length_that_may_be_0_is_set_aside():
    # (--narrowing, base, seed 3601, graph 198) a Slice's length L = (min(5, s) + 1)//2 - 1
    # (0 where s <= 2) named S_0 in a Squeeze of it that no node reads: a name is a size
    # of at least 1, so a Reshape of the slice to [L, -1] gave [L, 1] - at L = 0 the 0
    # copies the input's axis, [1, 0]. The graph alone leaves that Reshape open
    ints = {"b": [2], "e": [5], "ax": [1], "st": [2], "zero": [0], "one": [1], "minus": [-1]}
    m = _model([helper.make_node("Slice", ["x", "b", "e", "ax", "st"], ["t"]),
                helper.make_node("Shape", ["t"], ["ts"]),
                helper.make_node("Gather", ["ts", "one"], ["len"], axis=0),
                helper.make_node("Concat", ["len", "minus"], ["to"], axis=0),
                helper.make_node("Reshape", ["t", "to"], ["r"]),
                helper.make_node("Squeeze", ["t", "zero"], ["q"])],
               [helper.make_tensor_value_info("x", F, [1, "s"])],
               [helper.make_tensor_value_info("q", F, ["S_0"]),
                helper.make_tensor_value_info("r", F, None)],
               [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in ints.items()])
    sol = solve(m)
    assert sol.status == "ok" and list(sol.set_aside) == ["q"], sol.warnings
    assert "(a name is a size of at least 1, the graph's may be 0)" in sol.warnings[0]
    assert sol.shape("q") == "[(min(5, s) + 1)//2 - 1]" and sol.shape("r") == "[_1, _2]"


def test_an_output_declared_with_unknown_dims_says_only_its_rank():
    # (--narrowing, base, seed 3601, graph 132) t [2*a, 2*min(4, b) - 2, 3*c, d] declared
    # [?, ?, ?, ?]: its `?`s met the broadcast with x [s, e, f, d] as fresh names before
    # they were bound, and the solve required max(2*a, s) = 2*a - set aside as a
    # narrowing, though the graph gives it all itself
    ints = {"one": [1], "four": [4], "reps": [2, 2, 3, 1]}
    m = _model([helper.make_node("Slice", ["a", "one", "four", "one", "one"], ["sl"]),
                helper.make_node("Tile", ["sl", "reps"], ["t"]),
                helper.make_node("Sub", ["x", "t"], ["y"])],
               [helper.make_tensor_value_info("a", F, ["a", "b", "c", "d"]),
                helper.make_tensor_value_info("x", F, ["s", "e", "f", "d"])],
               [helper.make_tensor_value_info("t", F, [None] * 4),
                helper.make_tensor_value_info("y", F, ["y_0", "y_1", "y_2", "y_3"])],
               [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in ints.items()])
    sol = solve(m)
    assert sol.status == "ok" and sol.set_aside == {} and sol.constraints == []
    assert sol.shape("t") == "[2*a, 2*min(4, b) - 2, 3*c, d]"


def test_a_name_beside_another_declarations_name_for_a_count_is_kept(monkeypatch):
    # x [b, s, 4]: NonZero's count, declared by a name of its own in idx, and TopK by
    # k = s//2 (0 at s = 1: a name there says s >= 2), its output named and read by no
    # node. The count's name reaches NonZero's output in every trial with idx kept: it is
    # no more than a name, and top's names tell the graph nothing (compare's nonzero_topk:
    # top and where were set aside, five solves more)
    consts = [numpy_helper.from_array(np.asarray(v, np.int64), k)
              for k, v in (("one", [1]), ("two", [2]))]
    zero = numpy_helper.from_array(np.asarray(0.0, np.float32), "zero")
    nodes = [helper.make_node("Greater", ["x", "zero"], ["pos"]),
             helper.make_node("NonZero", ["pos"], ["nz"]),
             helper.make_node("Transpose", ["nz"], ["idx"]),
             helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "one"], ["len"]),
             helper.make_node("Div", ["len", "two"], ["k"]),
             helper.make_node("TopK", ["x", "k"], ["top", "where"], axis=1)]
    model = _model(nodes, [helper.make_tensor_value_info("x", F, ["b", "s", 4])],
                   [helper.make_tensor_value_info("idx", TensorProto.INT64, ["N_0", 3]),
                    helper.make_tensor_value_info("top", F, ["T_0", "T_1", "T_2"])],
                   consts + [zero])
    made = _solves(monkeypatch)
    sol = solve(model)
    assert not sol.warnings and sol.shape("top") == "[b, s//2, 4]"
    assert len(made) <= 2, made  # (the model's, and at most the one without declarations)


def _reduce(axes_from_shape: bool, declared: list):
    """x6 [s3, s4, s5] summed over axes [a, -2] (keepdims 0), a = Shape(x2)[0] - 4 (which
    axis depends on s0) or the constant 0; y declared `declared`."""
    inits = [numpy_helper.from_array(np.asarray(v, np.int64), k)
             for k, v in (("minus4", [-4]), ("minus2", [-2]), ("zero", [0]))]
    nodes = [helper.make_node("Concat", ["first", "minus2"], ["axes"], axis=0),
             helper.make_node("ReduceSum", ["x6", "axes"], ["y"], keepdims=0)]
    if axes_from_shape:
        nodes[:0] = [helper.make_node("Shape", ["x2"], ["xs"], start=0, end=1),
                     helper.make_node("Add", ["xs", "minus4"], ["first"])]
    else:
        nodes[:0] = [helper.make_node("Identity", ["zero"], ["first"])]
    return _model(nodes, [helper.make_tensor_value_info("x2", F, ["s0", "s2"]),
                          helper.make_tensor_value_info("x6", F, ["s3", "s4", "s5"])],
                  [helper.make_tensor_value_info("y", F, declared)], inits)


def test_a_traced_size_of_a_reduction_over_axes_computed_from_sizes_is_set_aside(
        monkeypatch):
    # at s0 = 4 the axes are [0, -2] and y is [s5]; at s0 = 6, [2, -2]: y is [s3]; at
    # s0 = 5, [1, -2], axis 1 twice (reduced once): y is [s3, s5]
    sol = solve(_reduce(True, [4]))
    assert len(sol.warnings) == 1 and "graph output y is declared [4]" in sol.warnings[0]
    assert "rank 1 that the graph leaves open" in sol.warnings[0]
    assert not sol.shape("y").startswith("[")  # (its rank too, the sizes decide)


def test_a_reduction_over_constant_axes_is_solved_once(monkeypatch):
    made = _solves(monkeypatch)
    sol = solve(_reduce(False, ["s5"]))
    assert sol.shape("y") == "[s5]" and not sol.warnings and len(made) == 1


def _squeezed(x: list, declared):
    """x squeezed without axes, then a Relu: z declared `declared`."""
    return _model([helper.make_node("Squeeze", ["x"], ["y"]),
                   helper.make_node("Relu", ["y"], ["z"])],
                  [helper.make_tensor_value_info("x", F, x)],
                  [helper.make_tensor_value_info("z", F, declared)])


def test_a_traced_rank_of_a_squeeze_without_axes_is_set_aside():
    # x [b, s] squeezed is [b, s] where neither is 1, [b] at s = 1, [s] at b = 1: the rank
    # is the sizes' to decide, and a declared [b, s] (traced at b, s >= 2) is set aside
    for x, declared in ((["b", "s"], ["b", "s"]), (["b", "s"], ["B", "S"]),
                        (["b", 1, 3], ["b", 3])):
        sol = solve(_squeezed(x, declared))
        assert len(sol.warnings) == 1, (x, sol.warnings)
        assert "which would give rank 2 that the graph leaves open; the graph gives no rank" \
            in sol.warnings[0]
        assert sol.shape("z").startswith("_"), sol.shape("z")  # (a shape variable)


def test_a_squeeze_of_sizes_each_known_to_be_1_or_not_keeps_its_declaration(monkeypatch):
    made = _solves(monkeypatch)
    sol = solve(_squeezed([2, 1, 3], [2, 3]))
    assert sol.shape("z") == "[2, 3]" and not sol.warnings and len(made) == 1


def _axes_from_sizes(op: str, declared):
    """x [b, s, 1] squeezed or unsqueezed at axis Shape(x2)[0] - 4 (x2 [s0]): which axis,
    the sizes decide (s0 = 6: axis 2; s0 = 4: axis 0)."""
    m4 = numpy_helper.from_array(np.asarray([-4], np.int64), "m4")
    return _model([helper.make_node("Shape", ["x2"], ["xs"], start=0, end=1),
                   helper.make_node("Add", ["xs", "m4"], ["axes"]),
                   helper.make_node(op, ["x", "axes"], ["y"])],
                  [helper.make_tensor_value_info("x2", F, ["s0"]),
                   helper.make_tensor_value_info("x", F, ["b", "s", 1])],
                  [helper.make_tensor_value_info("y", F, declared)], [m4])


def test_a_squeeze_at_an_axis_computed_from_sizes_is_no_error():
    # (a symbol sorts after every integer in clingo: `A >= R` held of it, and the graph
    # was called inconsistent; onnxruntime runs it at s0 = 6, giving [b, s])
    sol = solve(_axes_from_sizes("Squeeze", None))
    assert sol.status == "ok" and sol.shape("y").startswith("_")  # (rank open)


def test_traced_shapes_at_axes_computed_from_sizes_are_set_aside():
    for op, declared, why in (("Unsqueeze", ["b", 1, "s", 1], "axis 0 = b"),
                              ("Squeeze", ["b", "s"], "rank 2")):
        sol = solve(_axes_from_sizes(op, declared))
        assert sol.status == "ok" and len(sol.warnings) == 1, (op, sol.warnings)
        assert f"which would give {why}" in sol.warnings[0]


def _at_axis_from_sizes(op: str, declared):
    """x [b, s, c] padded by [1, 2], sliced to [0:1] or transformed (DFT, x [b, s, 2]) at
    axis Shape(x2)[0] - 4 (x2 [s0]): which axis, the sizes decide."""
    consts = {"m4": [-4], "pads": [1, 2], "zero": [0], "one": [1]}
    inits = [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in consts.items()]
    nodes = [helper.make_node("Shape", ["x2"], ["xs"], start=0, end=1),
             helper.make_node("Add", ["xs", "m4"], ["axes"])]
    x = ["b", "s", "c"]
    if op == "Pad":
        nodes.append(helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"]))
    elif op == "Slice":
        nodes.append(helper.make_node("Slice", ["x", "zero", "one", "axes"], ["y"]))
    else:  # (DFT's axis is a scalar input from opset 20)
        nodes += [helper.make_node("Squeeze", ["axes", "zero"], ["axis"]),
                  helper.make_node("DFT", ["x", "", "axis"], ["y"])]
        x = ["b", "s", 2]
    model = _model(nodes, [helper.make_tensor_value_info("x2", F, ["s0"]),
                           helper.make_tensor_value_info("x", F, x)],
                   [helper.make_tensor_value_info("y", F, declared)], inits)
    model.opset_import[0].version = 20
    return model


def test_traced_shapes_padded_sliced_or_transformed_at_axes_from_sizes_are_set_aside():
    # (fuzz --narrowing ops, seed 6002: a Pad's axes [Shape(x5)[0], 0, -2] left the third
    # axis open, and the declaration traced at other sizes filled it, wrong at s4 = 2)
    for op, declared, why in (("Pad", ["b", "s", "c"], "axis 0 = b, axis 1 = s, axis 2 = c"),
                              ("Slice", ["b", 1, "c"], "axis 0 = b, axis 1 = 1, axis 2 = c"),
                              ("DFT", ["b", "s", 2], "axis 0 = b, axis 1 = s")):
        sol = solve(_at_axis_from_sizes(op, declared))
        assert sol.status == "ok" and len(sol.warnings) == 1, (op, sol.warnings)
        assert f"which would give {why} that the graph leaves open" in sol.warnings[0], \
            (op, sol.warnings)
        assert sol.shape("y").startswith("[_1, _2"), (op, sol.shape("y"))


def test_a_traced_size_of_a_same_transposed_convolution_padding_below_0_is_set_aside():
    # stride 3 over a kernel of 2: SAME's total padding would be -1; the spec says 3*h,
    # onnxruntime clamps it and gives 3*h - 1: the graph leaves the axis open, and the
    # declaration (traced at h = 4: 11) was kept (fuzz --open-axes ops, seed 6102)
    w = numpy_helper.from_array(np.ones((2, 1, 1, 2), np.float32), "w")
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[3, 3],
                            kernel_shape=[1, 2], auto_pad="SAME_UPPER")
    sol = solve(_model([node], [helper.make_tensor_value_info("x", F, ["n", 2, "h", "w"])],
                       [helper.make_tensor_value_info("y", F, ["n", 1, "3*h", 11])], [w]))
    assert sol.status == "ok" and list(sol.set_aside) == ["y"], sol.warnings
    assert sol.shape("y") == "[n, 1, _1, _2]"


def test_a_traced_size_of_a_reshape_to_a_size_that_may_be_0_is_set_aside():
    # x [s0, s1] reshaped to [s1 / 2, -1]: at s1 = 1 the 0 copies s0, else s1//2: the
    # graph leaves both axes open, and the declaration (traced at s1 = 4) was kept
    consts = {"one": [1], "two": [2], "zero": [0], "m1": [-1]}
    inits = [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in consts.items()]
    nodes = [helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "one"], ["s1"]),
             helper.make_node("Div", ["s1", "two"], ["half"]),
             helper.make_node("Concat", ["half", "m1"], ["shape"], axis=0),
             helper.make_node("Reshape", ["x", "shape"], ["y"])]
    sol = solve(_model(nodes, [helper.make_tensor_value_info("x", F, ["s0", "s1"])],
                       [helper.make_tensor_value_info("y", F, [2, "2*s0"])], inits))
    assert sol.status == "ok" and list(sol.set_aside) == ["y"], sol.warnings
    assert sol.shape("y") == "[_1, _2]"


def test_a_traced_size_of_a_ceil_mode_pool_with_an_end_pad_of_a_window_is_set_aside():
    # pads [1, 3] about a window of 3 with ceil_mode: the spec and onnx's reference differ,
    # and the graph leaves the axis open; the declaration was kept (fuzz --open-axes ops,
    # seed 6201, an AveragePool)
    for op in ("MaxPool", "AveragePool", "LpPool"):
        node = helper.make_node(op, ["x"], ["y"], kernel_shape=[3], ceil_mode=1, pads=[1, 3])
        sol = solve(_model([node], [helper.make_tensor_value_info("x", F, ["n", 2, "w"])],
                           [helper.make_tensor_value_info("y", F, ["n", 2, "w + 2"])]))
        assert sol.status == "ok" and list(sol.set_aside) == ["y"], (op, sol.warnings)
        assert sol.shape("y") == "[n, 2, _1]", (op, sol.shape("y"))


def test_a_traced_size_of_a_broadcast_neither_side_decides_is_set_aside():
    # x [s0, s1] against its first min(s0, s1//2) rows: equal, or 0 rows broadcast with
    # s0 = 1, or 1 row: the graph leaves axis 0 open, and [5, s1] traced at s0 = 5 was
    # kept (fuzz --open-axes ops, seed 6304)
    consts = {"last": -1, "two": 2}
    inits = [numpy_helper.from_array(np.asarray(v, np.int64), k) for k, v in consts.items()]
    inits += [numpy_helper.from_array(np.asarray([0], np.int64), k) for k in ("z", "z0")]
    nodes = [helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "last"], ["s1"]),
             helper.make_node("Div", ["s1", "two"], ["half"]),
             helper.make_node("Unsqueeze", ["half", "z"], ["end"]),
             helper.make_node("Slice", ["x", "z0", "end", "z0"], ["top"]),
             helper.make_node("Less", ["x", "top"], ["y"])]
    sol = solve(_model(nodes, [helper.make_tensor_value_info("x", F, ["s0", "s1"])],
                       [helper.make_tensor_value_info("y", TensorProto.BOOL, [5, "s1"])],
                       inits))
    assert sol.status == "ok" and list(sol.set_aside) == ["y"], sol.warnings
    assert sol.shape("y") == "[_1, s1]"
