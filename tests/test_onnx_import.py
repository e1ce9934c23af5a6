"""ONNX import (INTERFACE §6): external data, subgraph attributes, dim_param expressions and
names that are not NAMEs, opset versions."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.load import load_graph

from .core.test_cli import cli

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, inits=(), opset=18):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def test_external_data_is_read(tmp_path):
    w = numpy_helper.from_array(np.arange(32 * 8, dtype=np.float32).reshape(32, 8), "w")
    shape = numpy_helper.from_array(np.array([0, 2, 4], np.int64), "shape")
    m = model([helper.make_node("MatMul", ["x", "w"], ["h"]),
               helper.make_node("Reshape", ["h", "shape"], ["y"])],
              [helper.make_tensor_value_info("x", F, ["n", 32])],
              [helper.make_tensor_value_info("y", F, ["n", 2, 4])], [w, shape])
    path = tmp_path / "ext.onnx"
    onnx.save(m, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
              location="ext.data", size_threshold=0)
    assert (tmp_path / "ext.data").exists()
    graph = load_graph(str(path))
    assert (graph.initializers["w"].data == numpy_helper.to_array(w)).all()
    sol = solve(str(path))
    assert sol.shape("y") == "[n, 2, 4]"  # the Reshape target came from the external file


def test_missing_external_data_is_an_input_error(tmp_path):
    w = numpy_helper.from_array(np.zeros((32, 8), np.float32), "w")
    m = model([helper.make_node("MatMul", ["x", "w"], ["y"])],
              [helper.make_tensor_value_info("x", F, ["n", 32])],
              [helper.make_tensor_value_info("y", F, None)], [w])
    path = tmp_path / "ext.onnx"
    onnx.save(m, str(path), save_as_external_data=True, location="gone.data",
              size_threshold=0)
    (tmp_path / "gone.data").unlink()
    r = cli("solve", path)
    assert r.returncode == 2 and str(path) in r.stderr and "Traceback" not in r.stderr


def _if_model():
    then = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [],
                             [helper.make_tensor_value_info("t", F, ["n", 4])])
    other = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [],
                              [helper.make_tensor_value_info("e", F, ["n", 4])])
    nodes = [helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
             helper.make_node("Greater", ["s", "zero"], ["c"]),
             helper.make_node("If", ["c"], ["branch"], then_branch=then, else_branch=other),
             helper.make_node("Exp", ["x"], ["y"])]
    zero = numpy_helper.from_array(np.array(0, np.float32), "zero")
    return model(nodes, [helper.make_tensor_value_info("x", F, ["n", 4])],
                 [helper.make_tensor_value_info("branch", F, None),
                  helper.make_tensor_value_info("y", F, ["n", 4])], [zero])


def test_subgraph_attributes_are_kept(tmp_path):
    m = _if_model()
    graph = load_graph(m)
    (node,) = [n for n in graph.nodes if n.op == "If"]
    assert node.attrs["then_branch"]["nodes"][0]["op"] == "Relu"
    assert node.attrs["else_branch"]["nodes"][0]["op"] == "Neg"
    assert sorted(b.op for b in graph.body_nodes) == ["Neg", "Relu"]  # solved in place
    sol = solve(m)
    assert sol.status == "ok" and sol.shape("y") == "[n, 4]" and sol.shape("c") == "[]"
    assert sol.shape("branch") == "[n, 4]"  # both branches agree
    path = tmp_path / "if.onnx"
    onnx.save(m, str(path))
    out = tmp_path / "if.json"
    assert cli("import", path, "-o", out).returncode == 0
    g = json.loads(out.read_text())
    (node,) = [n for n in g["nodes"] if n["op"] == "If"]
    assert node["attrs"]["then_branch"]["nodes"][0]["op"] == "Relu"
    assert list(node["attrs"]["else_branch"]["outputs"]) == ["e"]
    assert solve(str(out)).shape("y") == "[n, 4]"


def test_dim_param_expressions_and_other_names(tmp_path):
    nodes = [helper.make_node("Concat", ["past", "x"], ["k"], axis=1),
             helper.make_node("Add", ["k", "mask"], ["y"])]
    m = model(nodes, [helper.make_tensor_value_info("past", F, ["batch size", "past_seq", 8]),
                      helper.make_tensor_value_info("x", F, ["batch size", "seq", 8]),
                      helper.make_tensor_value_info("mask", F, [1, "past_seq + seq", 1])],
              [helper.make_tensor_value_info("y", F, None)])
    sol = solve(m)
    # 'past_seq + seq' is read as the expression, so the broadcast is exact
    assert sol.shape("mask") == "[1, past_seq + seq, 1]"
    assert sol.shape("y") == "[batch_size, past_seq + seq, 8]"
    assert sol.to_json()["symbols"] == {"batch size": "batch_size"}
    path = tmp_path / "m.onnx"
    onnx.save(m, str(path))
    r = cli("solve", path)
    assert "symbols: 'batch size' -> batch_size" in r.stdout
    # the export writes a mapped dim_param back under its own text
    out = tmp_path / "a.onnx"
    assert cli("solve", path, "-o", out).returncode == 0
    vi = {v.name: v for v in onnx.load(str(out)).graph.value_info}
    assert [d.dim_param or d.dim_value for d in vi["k"].type.tensor_type.shape.dim] == \
        ["batch size", "past_seq + seq", 8]


def test_a_question_mark_dim_param_is_unknown_each_time():
    # paddle2onnx declares an image input [-1, 3, '?', '?']: the height and the width are
    # two unknown sizes, not one symbol (the model would then refuse every non-square
    # image, and its shapes would be wrong for them)
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[0, 1, 3, 2]),
             helper.make_node("Relu", ["x"], ["y"])]
    m = model(nodes, [helper.make_tensor_value_info("x", F, [-1, 3, "?", "?"])],
              [helper.make_tensor_value_info("y", F, None),
               helper.make_tensor_value_info("t", F, None)])
    sol = solve(m)
    n, c, h, w = sol.dims("x")
    assert len({str(n), str(h), str(w)}) == 3 and all(str(d).startswith("_") for d in (n, h, w))
    assert tuple(sol.dims("t")) == (n, c, w, h) and "symbols" not in sol.to_json()
    import shape_logic  # (and it runs on a non-square image)

    assert shape_logic.run(m, {"x": np.zeros((2, 3, 4, 5), np.float32)})["t"].shape == \
        (2, 3, 5, 4)


def test_unnamed_dims_get_fresh_names_and_a_model_object_solves():
    m = model([helper.make_node("Relu", ["x"], ["y"])],
              [helper.make_tensor_value_info("x", F, [None, 3])],
              [helper.make_tensor_value_info("y", F, None)])
    assert solve(m).shape("y") == "[_1, 3]"


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64, np.int32,
                                   np.int16, np.int8, np.uint8, np.uint16, np.uint32,
                                   np.uint64, np.bool_])
@pytest.mark.parametrize("shape", [(2, 3), (0, 3), ()])
def test_tensor_array_reads_what_onnx_reads(dtype, shape):
    """onnx_import.tensor_array's direct path gives numpy_helper.to_array's array, from raw
    bytes and from the typed fields (float_data, int64_data...)."""
    from onnx import helper, numpy_helper

    from shape_logic.onnx_import import tensor_array

    arr = (np.arange(int(np.prod(shape))) % 5).astype(dtype).reshape(shape)
    protos = [numpy_helper.from_array(arr)]
    if dtype in (np.float32, np.float64, np.int64, np.int32):
        protos.append(helper.make_tensor("x", helper.np_dtype_to_tensor_dtype(np.dtype(dtype)),
                                         shape, arr.reshape(-1).tolist()))
    for p in protos:
        got, want = tensor_array(p), numpy_helper.to_array(p)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


# ----- declared outputs narrower than the graph (shape_logic/narrowing.py)

def _lstm_like(declared_out):
    """x [batch, seq, 8] -> Transpose -> Relu -> Transpose -> y, y declared as given."""
    return model([helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2]),
                  helper.make_node("Relu", ["t"], ["r"]),
                  helper.make_node("Transpose", ["r"], ["y"], perm=[1, 0, 2])],
                 [helper.make_tensor_value_info("x", F, ["batch", "seq", 8])],
                 [helper.make_tensor_value_info("y", F, declared_out)])


def test_a_declared_output_does_not_narrow_the_inputs():
    # torch's dynamo exporter declares an LSTM's output with the traced length (5) where
    # the input says seq: like onnxruntime, we take it as advice - the graph's shapes hold
    # for any seq - and say so
    m = _lstm_like(["batch", 5, 8])
    sol = solve(m)
    assert sol.status == "ok"
    assert sol.bindings == {} and sol.shape("t") == "[seq, batch, 8]"
    assert sol.shape("y") == "[batch, seq, 8]"
    (w,) = sol.warnings
    assert w.startswith("graph output y is declared [batch, 5, 8], which would require "
                        "seq = 5; the graph gives [batch, seq, 8], which is used")
    # the executor runs it at another length, as onnxruntime does
    from shape_logic import run

    x = np.ones((2, 7, 8), np.float32)
    assert run(m, {"x": x})["y"].shape == (2, 7, 8)


def test_a_declared_output_that_contradicts_the_graph_is_set_aside():
    sol = solve(_lstm_like(["batch", "seq", 9]))
    assert sol.status == "ok" and sol.shape("y") == "[batch, seq, 8]"
    (w,) = sol.warnings
    assert w.startswith("graph output y is declared [batch, seq, 9], which contradicts it; "
                        "the graph gives [batch, seq, 8]")


def test_outputs_declared_with_shared_names_are_kept_while_they_agree():
    # the legacy exporter names the dims of outputs that dynamic_axes does not list after
    # what its shape inference merged: F.pad's two outputs and a flatten share names
    pads = [numpy_helper.from_array(np.array(p, np.int64), n)
            for p, n in (([0, 0, 1, 2, 0, 0, 3, 4], "p1"), ([0, 0, 0, 0, 0, 0, 0, 5], "p2"))]
    names = ["P_0", "P_1", "P_2", "P_3"]
    m = model([helper.make_node("Pad", ["x", "p1"], ["a"]),
               helper.make_node("Pad", ["x", "p2"], ["b"]),
               helper.make_node("Flatten", ["x"], ["f"])],
              [helper.make_tensor_value_info("x", F, ["n", 3, "h", "w"])],
              [helper.make_tensor_value_info("a", F, names),
               helper.make_tensor_value_info("b", F, names),
               helper.make_tensor_value_info("f", F, ["n", "P_0"])], pads)
    sol = solve(m)
    assert sol.status == "ok" and sol.constraints == []
    assert sol.shape("a") == "[n, 3, h + 4, w + 6]"  # kept: names its dims
    assert sol.bindings["P_2"] == "h + 4"
    assert sol.shape("b") == "[n, 3, h, w + 5]"  # set aside: h + 4 != h
    assert sol.shape("f") == "[n, 3*h*w]"  # set aside: it would require 3*h*w = n
    assert [w.split(",")[0] for w in sol.warnings] == [
        "graph output b is declared [P_0", "graph output f is declared [n"]
    assert "which contradicts it" in sol.warnings[0]
    assert "which would require 3*h*w = n" in sol.warnings[1]


def test_a_shared_name_does_not_give_a_dim_the_graph_leaves_open():
    # three F.interpolate outputs declared with one set of names: x1.5 is exact in f32,
    # x0.7 is not (onnxruntime gives 7 for 10, the exact floor 6), so the graph leaves b's
    # spatial dims open - the name shared with a only the exporter says equal
    scales = [numpy_helper.from_array(np.array(v, np.float32), n)
              for v, n in (([1, 1, 1.5, 1.5], "up"), ([1, 1, 0.7, 0.7], "odd"))]
    names = ["R_0", 3, "R_2", "R_3"]
    m = model([helper.make_node("Resize", ["x", "", "up"], ["a"]),
               helper.make_node("Resize", ["x", "", "odd"], ["b"])],
              [helper.make_tensor_value_info("x", F, ["n", 3, "h", "w"])],
              [helper.make_tensor_value_info("a", F, names),
               helper.make_tensor_value_info("b", F, names)], scales)
    sol = solve(m)
    assert sol.status == "ok"
    assert sol.shape("a") == "[n, 3, 3*h//2, 3*w//2]"
    assert sol.shape("b") == "[n, 3, _1, _2]"
    (w,) = sol.warnings
    assert w.startswith("graph output b is declared [R_0, 3, R_2, R_3], whose names, shared "
                        "with another declared dim, would give axis 2 = 3*h//2, axis 3 = "
                        "3*w//2 that the graph leaves open")


def test_a_shared_name_does_not_make_two_open_dims_equal():
    # two data-dependent counts declared with one name (the legacy exporter's merging: a
    # scripted loop's stacked and joined outputs, 2 and 10 at run time): the graph leaves
    # both open, and kept the name would print them as one size
    names = ["C_0", 4]
    m = model([helper.make_node("Compress", ["x", "mask1"], ["a"], axis=0),
               helper.make_node("Compress", ["x", "mask2"], ["b"], axis=0)],
              [helper.make_tensor_value_info("x", F, [3, 4]),
               helper.make_tensor_value_info("mask1", TensorProto.BOOL, [3]),
               helper.make_tensor_value_info("mask2", TensorProto.BOOL, [3])],
              [helper.make_tensor_value_info("a", F, names),
               helper.make_tensor_value_info("b", F, names)])
    sol = solve(m)
    assert sol.status == "ok"
    assert sol.shape("a") == "[_c1, 4]" and sol.shape("b") == "[_c2, 4]"
    assert len(sol.warnings) == 2
    assert all("would give axis 0 equal to" in w for w in sol.warnings)


def test_a_scalar_declaration_is_advice_too():
    # `shape {}` declares rank 0 (bench/fuzz.py --narrowing, seed 1): narrowing took only
    # declarations with dims for declared, so a Shape output declared a scalar made the
    # model inconsistent alone, and beside a declaration set aside it was solved
    # undeclared without a warning
    def shape_of(*declared):
        outs = [helper.make_tensor_value_info("s", TensorProto.INT64, declared[0])]
        if len(declared) > 1:
            outs.append(helper.make_tensor_value_info("y", F, declared[1]))
        return model([helper.make_node("Shape", ["x"], ["s"]),
                      helper.make_node("Relu", ["x"], ["y"])],
                     [helper.make_tensor_value_info("x", F, ["n", 3])], outs)

    for m in (shape_of([]), shape_of([], ["n", 4])):
        sol = solve(m)
        assert sol.status == "ok" and sol.shape("s") == "[2]"
        assert sol.set_aside["s"][2] == "contradiction"
        assert sum(w.startswith("graph output s is declared [], which contradicts it")
                   for w in sol.warnings) == 1
    sol = solve(shape_of([2], ["n", 4]))
    assert list(sol.set_aside) == ["y"]
    # a scalar the graph gives is kept as declared
    m = model([helper.make_node("ReduceSum", ["x"], ["r"], keepdims=0)],
              [helper.make_tensor_value_info("x", F, ["n", 3])],
              [helper.make_tensor_value_info("r", F, [])])
    sol = solve(m)
    assert sol.status == "ok" and sol.shape("r") == "[]" and sol.warnings == []


def test_a_traced_size_for_a_count_the_data_decides_is_set_aside():
    # bench/fuzz.py --narrowing (ops, seed 2): a Compress, Unique or NonZero output declared
    # with its traced count (or an input's name) was kept - it requires nothing of the
    # inputs - and printed, wrong for other data; a name of its own says nothing and stays
    def nonzero(declared, more=()):
        return model([helper.make_node("NonZero", ["x"], ["z"]),
                      helper.make_node("Relu", ["x"], ["r"])],
                     [helper.make_tensor_value_info("x", F, ["n", 3])],
                     [helper.make_tensor_value_info("z", TensorProto.INT64, declared),
                      *more])

    # (an input's name for it is looked for only when narrowing looks for another reason:
    # here r's traced size; the one-solve path looks for integers, Longformer's
    # NonZero(ConstantOfShape([4*batch], 1)) counts 4*batch in its inputs' names)
    traced_r = [helper.make_tensor_value_info("r", F, [2, 3])]
    for declared, more, given in (([2, 7], (), "7"), ([2, "n"], traced_r, "n")):
        sol = solve(nonzero(declared, more))
        assert sol.status == "ok" and sol.shape("z") == "[2, _c1]", sol.shape("z")
        assert f"which would give axis 1 = {given} that the graph leaves open" in \
            sol.warnings[0]
    sol = solve(nonzero([2, "count"]))
    assert sol.shape("z") == "[2, count]" and sol.warnings == []


def test_declared_names_do_not_relate_a_count_the_data_decides():
    # (--narrowing, ops, seed 3) Unique's values declared [2*k] and its counts [c]: kept,
    # the one count printed c with k = c//2, a claim that it is even
    m = model([helper.make_node("Unique", ["x"], ["u", "i", "inv", "c"], sorted=0)],
              [helper.make_tensor_value_info("x", TensorProto.INT64, ["n", "m"])],
              [helper.make_tensor_value_info("u", TensorProto.INT64, ["2*k"]),
               helper.make_tensor_value_info("c", TensorProto.INT64, ["c"])])
    sol = solve(m)
    assert sol.status == "ok" and sol.shape("u") == "[c]" and sol.constraints == []
    assert list(sol.set_aside) == ["u"] and sol.bindings == {}
    (w,) = sol.warnings
    assert "which would give axis 0 = 2*k that the graph leaves open" in w


def test_a_name_of_its_own_for_a_dim_the_graph_leaves_open_is_kept():
    # (--narrowing, base, seed 4) a Conv's width declared S_2 (a size >= 1) lets the solve
    # give its broadcast with the input's width as w; the next output, declared with a name
    # of its own there, said nothing of it and is kept (a traced size of a third output
    # makes narrowing look)
    m = model([helper.make_node("Conv", ["x", "k"], ["c"], dilations=[2]),
               helper.make_node("Less", ["c", "x"], ["y"]),
               helper.make_node("Relu", ["x"], ["r"])],
              [helper.make_tensor_value_info("x", F, ["n", 1, "w"]),
               helper.make_tensor_value_info("k", F, [2, 1, "kw"])],
              [helper.make_tensor_value_info("c", F, ["S_0", 2, "S_2"]),
               helper.make_tensor_value_info("y", TensorProto.BOOL, ["n", 2, "f"]),
               helper.make_tensor_value_info("r", F, ["n", 1, 5])])
    sol = solve(m)
    assert sol.status == "ok" and list(sol.set_aside) == ["r"]
    assert sol.shape("c") == "[n, 2, w - 2*kw + 2]" and sol.shape("y") == "[n, 2, w]"


def test_a_name_for_a_count_the_data_decides_is_set_aside_where_nodes_read_it():
    # (--narrowing, ops, seed 6) a name is a size of at least 1: Compress's rows declared
    # S_0 and sliced [-1:1] gave max(0, 2 - S_0) rows, 2 where no row is selected (0). An
    # output no node reads keeps its name ([3, count] above)
    ints = [numpy_helper.from_array(np.array(v, np.int64), n)
            for v, n in (([-1], "starts"), ([1], "ends"), ([0], "axes"))]
    m = model([helper.make_node("Compress", ["x", "mask"], ["c"], axis=0),
               helper.make_node("Slice", ["c", "starts", "ends", "axes"], ["y"])],
              [helper.make_tensor_value_info("x", F, ["n", 2]),
               helper.make_tensor_value_info("mask", TensorProto.BOOL, ["n"])],
              [helper.make_tensor_value_info("c", F, ["S_0", 2]),
               helper.make_tensor_value_info("y", F, ["r", 2])], ints)
    sol = solve(m)
    assert sol.status == "ok" and list(sol.set_aside) == ["c"]
    assert "which would give axis 0 = S_0 (a name is a size of at least 1, the data's may " \
           "be 0) that the graph leaves open" in sol.warnings[0]
    assert "S_0" not in sol.shape("y") and sol.shape("c") == "[_c1, 2]"


def test_a_shape_error_of_the_graph_itself_stays_an_error():
    m = model([helper.make_node("Add", ["x", "z"], ["y"])],
              [helper.make_tensor_value_info("x", F, ["n", 3]),
               helper.make_tensor_value_info("z", F, ["n", 4])],
              [helper.make_tensor_value_info("y", F, ["n", 4])])
    assert solve(m).status == "error"


def test_only_the_declarations_that_narrow_are_set_aside():
    # two outputs: y's declaration would fix seq, z's names a size the graph leaves open
    m = model([helper.make_node("Relu", ["x"], ["y"]),
               helper.make_node("NonZero", ["x"], ["z"])],
              [helper.make_tensor_value_info("x", F, ["batch", "seq", 8])],
              [helper.make_tensor_value_info("y", F, ["batch", 5, 8]),
               helper.make_tensor_value_info("z", TensorProto.INT64, [3, "count"])])
    sol = solve(m)
    assert sol.shape("y") == "[batch, seq, 8]" and sol.shape("z") == "[3, count]"
    assert len(sol.warnings) == 1 and "graph output y" in sol.warnings[0]


def test_a_binding_the_graph_makes_itself_is_not_warned_about():
    # a Reshape to a constant size binds n = 2 whatever the output says
    shape = numpy_helper.from_array(np.array([2, 4], np.int64), "shape")
    m = model([helper.make_node("Reshape", ["x", "shape"], ["y"])],
              [helper.make_tensor_value_info("x", F, ["n", 4])],
              [helper.make_tensor_value_info("y", F, [2, 4])], [shape])
    sol = solve(m)
    assert sol.bindings == {"n": 2} and sol.warnings == []


def test_declared_outputs_that_agree_with_the_graph_are_not_warned_about():
    sol = solve(_lstm_like(["batch", "seq", 8]))
    assert sol.bindings == {} and sol.warnings == []


def test_an_annotation_of_a_json_graph_that_determines_an_input_is_not_warned_about():
    # written on purpose: backward inference (INTERFACE section 2)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[batch, seq, 8]"}},
         "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}],
         "outputs": {"y": {"shape": "[batch, 5, 8]"}}}
    sol = solve(g)
    assert sol.bindings == {"seq": 5} and sol.warnings == []


def test_check_lists_the_declarations_set_aside(tmp_path):
    path = tmp_path / "m.onnx"
    onnx.save(_lstm_like(["batch", 5, 8]), str(path))
    r = cli("check", str(path))
    assert r.returncode == 0  # advice that narrows: listed, not an error
    assert "graph.output[y]: [batch, 5, 8] - set aside: it requires of the inputs" in r.stdout
    onnx.save(_lstm_like(["batch", "seq", 9]), str(path))
    r = cli("check", str(path))
    assert r.returncode == 1  # advice that contradicts the graph: what check is for
    assert "err  graph.output[y]: [batch, seq, 9] - set aside: it contradicts the graph, " \
           "which gives [batch, seq, 8]" in r.stdout


def _flatten_declared(declared, more_inputs=()):
    return model([helper.make_node("Flatten", ["x"], ["y"], axis=0)],
                 [helper.make_tensor_value_info("x", F, ["n", "m"]), *more_inputs],
                 [helper.make_tensor_value_info("y", F, declared)])


def test_a_declaration_that_relates_input_dims_alone_is_set_aside():
    # [1, a*b] for a Flatten of [n, m] requires m*n = a*b of the inputs, with no binding
    sol = solve(_flatten_declared([1, "a*b"], [helper.make_tensor_value_info("z", F,
                                                                             ["a", "b"])]))
    assert sol.status == "ok" and sol.shape("y") == "[1, m*n]" and sol.constraints == []
    assert list(sol.set_aside) == ["y"]
    (w,) = sol.warnings
    assert "which would require" in w and "a*b" in w


def test_a_declaration_that_names_a_dim_by_its_own_symbols_is_kept():
    # [1, k*l]: k and l are the declaration's own names; m*n = k*l requires nothing of n, m
    sol = solve(_flatten_declared([1, "k*l"]))
    assert sol.status == "ok" and sol.set_aside == {} and sol.warnings == []
    assert sol.shape("y") == "[1, k*l]"


def test_a_trial_kept_after_its_solve_cancels_the_solve_run_ahead(narrowing_solves):
    # y1 is read by a node, so its trial is solved, and kept; meanwhile the trial of y2
    # alone ran ahead (narrowing._Solves) assuming y1 set aside: it is cancelled, and y2 is
    # tried with y1 kept, as in the sequential order
    calls = narrowing_solves
    m = model([helper.make_node("Relu", ["x"], ["y1"]), helper.make_node("Relu", ["y1"], ["y2"])],
              [helper.make_tensor_value_info("x", F, ["batch", "seq", 8])],
              [helper.make_tensor_value_info("y1", F, ["batch", "seq", 8]),
               helper.make_tensor_value_info("y2", F, ["batch", 5, 8])])
    sol = solve(m)
    assert sol.status == "ok" and sol.shape("y2") == "[batch, seq, 8]"
    assert list(sol.set_aside) == ["y2"] and sol.bindings == {}
    cancelled = {tuple(outputs): cancel is not None and cancel.is_set()
                 for outputs, cancel, _ in calls}
    # (the trial of y2 with y1 kept declares both: it is the model's own solve, not redone)
    assert cancelled == {(): False, ("y1",): False, ("y2",): True}
    assert len(calls) == 3


def test_the_trial_of_every_declaration_is_the_model_s_own_solve(narrowing_solves):
    # the legacy exporter names a dim after another it merged it with: MobileNetV2's one
    # output [batch, 1280, height//32, ..] declared [C_0, 1280, C_0, C_3]. Solved without
    # the declaration (one solve more, started at once: the name is shared), and its trial
    # - every declaration in force - is the model's solve already made
    m = model([helper.make_node("Relu", ["x"], ["y"])],
              [helper.make_tensor_value_info("x", F, ["batch", 8, "h", "w"])],
              [helper.make_tensor_value_info("y", F, ["C_0", 8, "C_0", "C_3"])])
    sol = solve(m)
    assert sol.status == "ok" and sol.shape("y") == "[batch, 8, h, w]" and sol.bindings == {}
    assert list(sol.set_aside) == ["y"]
    (w,) = sol.warnings
    assert "which would require" in w and "the graph gives [batch, 8, h, w]" in w
    assert [outputs for outputs, *_ in narrowing_solves] == [[]]


def test_import_writes_a_branch_s_constant(tmp_path):
    # a body read as a graph object keeps its nodes' tensor attributes as arrays: the JSON
    # writer writes them as the graph's (it raised a TypeError, a traceback, before)
    from onnx import TensorProto as TP

    def branch(name):
        return helper.make_graph([helper.make_node("Constant", [], [name], value=helper.make_tensor(
            "", TP.FLOAT, [2], [1, 2]))], name, [], [helper.make_tensor_value_info(name, TP.FLOAT,
                                                                                 [2])])
    g = helper.make_graph([helper.make_node("If", ["c"], ["y"], then_branch=branch("t"),
                                            else_branch=branch("e"))], "g",
                          [helper.make_tensor_value_info("c", TP.BOOL, [])],
                          [helper.make_tensor_value_info("y", TP.FLOAT, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]),
              tmp_path / "m.onnx")
    r = cli("import", tmp_path / "m.onnx", "-o", tmp_path / "g.json")
    assert r.returncode == 0, r.stderr
    g = json.loads((tmp_path / "g.json").read_text())
    value = g["nodes"][0]["attrs"]["then_branch"]["nodes"][0]["attrs"]["value"]
    assert value == {"dtype": "f32", "shape": [2], "data": [1.0, 2.0]}
    assert solve(str(tmp_path / "g.json")).shape("y") == "[2]"
