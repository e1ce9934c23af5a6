"""`solve model.onnx -o annotated.onnx` and `import model.onnx -o graph.json`: round trips."""
import json

import onnx
import pytest

from shape_logic import solve

from .onnx_graphs import kv_attention
from .core.test_cli import cli


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "kv.onnx"
    onnx.save(kv_attention(), str(path))
    return path


@pytest.fixture(scope="module")
def annotated(model_path):
    out = model_path.parent / "annotated.onnx"
    r = cli("solve", model_path, "-o", out)
    assert r.returncode == 0, r.stderr
    return out


def test_annotated_model_passes_the_checker_and_keeps_the_rest(model_path, annotated):
    before, after = onnx.load(str(model_path)), onnx.load(str(annotated))
    onnx.checker.check_model(after)
    assert list(after.graph.node) == list(before.graph.node)
    assert list(after.graph.initializer) == list(before.graph.initializer)
    assert list(after.graph.input) == list(before.graph.input)
    assert after.opset_import == before.opset_import


def test_value_info_holds_the_inferred_shapes(annotated):
    after = onnx.load(str(annotated))
    sol = solve(str(annotated))
    infos = {vi.name: vi for vi in after.graph.value_info}
    produced = [t for n in after.graph.node for t in n.output if t not in ("y", "present_k")]
    assert set(produced) <= set(infos)
    for t in produced:
        tt = infos[t].type.tensor_type
        dims = [str(d.dim_value) if d.HasField("dim_value") else d.dim_param
                for d in tt.shape.dim]
        assert "[" + ", ".join(dims) + "]" == sol.shape(t), t
        assert tt.elem_type == {"f32": 1, "i64": 7, "bool": 9}[sol.dtype(t)], t
    k = [d.dim_param or d.dim_value for d in infos[after.graph.node[-1].input[0]]
         .type.tensor_type.shape.dim]
    assert k == ["batch", 2, "past_seq + seq", 8]
    # the output y declared [batch, seq, ?] gets its unnamed dim filled in
    y = after.graph.output[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in y] == ["batch", "seq", 32]


def test_solving_the_annotated_model_gives_the_same_shapes(model_path, annotated):
    first, again = solve(str(model_path)), solve(str(annotated))
    assert again.status == "ok"
    for t in first.graph.tensors():
        assert again.shape(t) == first.shape(t), t
        assert again.dtype(t) == first.dtype(t), t


def test_onnx_shape_inference_accepts_the_annotations(annotated):
    # onnx merges value_info with what it infers itself; a clash would raise here
    inferred = onnx.shape_inference.infer_shapes(onnx.load(str(annotated)), strict_mode=True)
    assert len(inferred.graph.value_info) >= len(onnx.load(str(annotated)).graph.value_info)


def test_import_writes_the_graph_format(model_path, tmp_path):
    out = tmp_path / "g.json"
    r = cli("import", model_path, "-o", out)
    assert r.returncode == 0, r.stderr
    g = json.loads(out.read_text())
    assert g["inputs"]["past_k"] == {"dtype": "f32", "shape": "[batch, 2, past_seq, 8]"}
    assert g["outputs"]["present_k"]["shape"] == "[batch, 2, past_seq + seq, 8]"
    assert g["outputs"]["y"]["shape"] == "[batch, seq, ?]"
    assert len(g["nodes"]) == len(onnx.load(str(model_path)).graph.node)
    from_json, from_onnx = solve(str(out)), solve(str(model_path))
    for t in from_onnx.graph.tensors():
        assert from_json.shape(t) == from_onnx.shape(t), t


def test_import_puts_large_initializers_in_npy_files(tmp_path):
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    w = numpy_helper.from_array(np.arange(4096, dtype=np.float32).reshape(64, 64), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 64])], initializer=[w])
    src = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph), str(src))
    out = tmp_path / "m.json"
    assert cli("import", src, "-o", out).returncode == 0
    g = json.loads(out.read_text())
    assert g["initializers"]["w"]["file"].endswith(".npy")
    got = np.load(tmp_path / g["initializers"]["w"]["file"])
    assert (got == numpy_helper.to_array(w)).all()
    assert solve(str(out)).shape("y") == "[n, 64]"


def test_writing_onnx_from_a_json_graph_is_an_input_error(tmp_path):
    r = cli("solve", "examples/mlp.json", "-o", tmp_path / "x.onnx")
    assert r.returncode == 2 and "only supported for graphs read from ONNX" in r.stderr


def bodies_model():
    """If (one branch unnamed), a Loop whose body carries a growing tensor, a Scan and a
    model-local function: the tensors of each body are the body's own."""
    from onnx import TensorProto, helper

    f32 = TensorProto.FLOAT
    then = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["t1"], name="relu"),
         helper.make_node("Neg", ["t1"], ["o1"])],
        "then", [], [helper.make_tensor_value_info("o1", f32, None)])
    other = helper.make_graph([helper.make_node("Abs", ["x"], ["o2"])], "else", [],
                              [helper.make_tensor_value_info("o2", f32, None)])
    loop_body = helper.make_graph(
        [helper.make_node("Identity", ["cond"], ["cond_out"]),
         helper.make_node("Concat", ["acc", "x"], ["acc_out"], axis=0),
         helper.make_node("ReduceSum", ["acc_out"], ["total"], keepdims=0)],
        "loop_body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc", f32, [None, 3])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", f32, None),
         helper.make_tensor_value_info("total", f32, None)])
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["s", "row"], ["s_out"]),
         helper.make_node("Mul", ["s_out", "row"], ["sq"])],
        "scan_body",
        [helper.make_tensor_value_info("s", f32, [3]),
         helper.make_tensor_value_info("row", f32, [3])],
        [helper.make_tensor_value_info("s_out", f32, None),
         helper.make_tensor_value_info("sq", f32, None)])
    double = helper.make_function("local", "Double", ["a"], ["b"],
                                  [helper.make_node("Add", ["a", "a"], ["b"])],
                                  [helper.make_opsetid("", 18)])
    nodes = [
        helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other, name="if1"),
        helper.make_node("Loop", ["n", "", "x"], ["acc_final", "totals"], body=loop_body),
        helper.make_node("Scan", ["zero", "x"], ["s_final", "squares"], body=scan_body,
                         num_scan_inputs=1, name="scan"),
        helper.make_node("Double", ["y"], ["z"], domain="local", name="call"),
    ]
    zero = helper.make_tensor("zero", f32, [3], [0.0, 0.0, 0.0])
    graph = helper.make_graph(
        nodes, "bodies",
        [helper.make_tensor_value_info("x", f32, ["b", 3]),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         helper.make_tensor_value_info("n", TensorProto.INT64, [])],
        [helper.make_tensor_value_info(t, f32, [None] * r) for t, r in
         (("z", 2), ("acc_final", 2), ("totals", 1), ("s_final", 1), ("squares", 2))],
        [zero])
    return helper.make_model(graph, functions=[double], opset_imports=[
        helper.make_opsetid("", 18), helper.make_opsetid("local", 1)])


def _dims(vi) -> list:
    """dim_value, dim_param or None (unset) per dim."""
    return [getattr(d, d.WhichOneof("value")) if d.WhichOneof("value") else None
            for d in vi.type.tensor_type.shape.dim]


def test_body_shapes_go_into_the_bodies_value_info(tmp_path):
    import numpy as np
    import onnxruntime as ort

    path, out = tmp_path / "bodies.onnx", tmp_path / "annotated.onnx"
    onnx.save(bodies_model(), str(path))
    r = cli("solve", path, "-o", out)
    assert r.returncode == 0, r.stderr
    after = onnx.load(str(out))
    onnx.checker.check_model(after, full_check=True)
    g = after.graph
    # the main graph names only its own tensors: no namespaced body or function tensor
    produced = {t for n in g.node for t in n.output}
    assert {vi.name for vi in g.value_info} <= produced
    assert not any("/" in vi.name for vi in g.value_info)
    body = {(n.op_type, a.name): a.g for n in g.node for a in n.attribute if a.type == a.GRAPH}
    then, other = body[("If", "then_branch")], body[("If", "else_branch")]
    assert {vi.name: _dims(vi) for vi in then.value_info} == {"t1": ["b", 3]}
    assert _dims(then.output[0]) == ["b", 3] and _dims(other.output[0]) == ["b", 3]
    scan = body[("Scan", "body")]
    assert _dims(scan.output[0]) == [3] and _dims(scan.output[1]) == [3]
    # the loop's carried value grows each round: no first dim is written for it (a
    # fresh name stays out of a declared output)
    loop = body[("Loop", "body")]
    assert _dims(loop.output[1]) == [None, 3]
    assert _dims(loop.output[2]) == []
    # the shapes written are the solver's, the model still runs and loads in onnxruntime
    sol = solve(str(path))
    assert sol.shape("if1/then_branch/t1") == "[b, 3]"
    sess = ort.InferenceSession(after.SerializeToString(), providers=["CPUExecutionProvider"])
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    feeds = {"x": x, "c": np.array(True), "n": np.array(2, np.int64)}
    got = sess.run(None, feeds)
    want = ort.InferenceSession(bodies_model().SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(None, feeds)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    again = solve(str(out))
    for t in sol.graph.tensors():
        assert again.shape(t) == sol.shape(t), t
