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
