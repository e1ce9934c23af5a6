"""ONNX optionals end to end: read from a model (optional value types, Optional's TypeProto
attribute), solved, written back into value_info and a JSON graph, run (an empty optional is
None) and compared with onnxruntime (rules/Optional*.lp, DESIGN.md "Optionals")."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper as h

from shape_logic import solve
from shape_logic.executor import Program
from shape_logic.onnx_export import annotated_model

from .core.test_cli import cli


def scripted_optional():
    """torch.jit.script of `y: Optional[Tensor] = None; if n > 2: y = x * 2;
    return x if y is None else y + 1`, as the TorchScript exporter writes it (opset 17):
    an If making an optional (empty on one side), OptionalHasElement deciding a second If,
    OptionalGetElement in its branch."""
    opt_type = h.make_tensor_type_proto(TP.FLOAT, ["b", 3])
    then = h.make_graph(
        [h.make_node("Constant", [], ["two"], value=h.make_tensor("", TP.FLOAT, [], [2.0])),
         h.make_node("Mul", ["x", "two"], ["m"]),
         h.make_node("Optional", ["m"], ["o1"], type=opt_type)],
        "then", [], [h.make_value_info("o1", h.make_optional_type_proto(opt_type))])
    other = h.make_graph([h.make_node("Optional", [], ["o2"], type=opt_type)], "else", [],
                         [h.make_value_info("o2", h.make_optional_type_proto(opt_type))])
    keep = h.make_graph([h.make_node("Identity", ["x"], ["i"])], "keep", [],
                        [h.make_tensor_value_info("i", TP.FLOAT, ["b", 3])])
    add = h.make_graph(
        [h.make_node("OptionalGetElement", ["y"], ["e"]),
         h.make_node("Constant", [], ["one"], value=h.make_tensor("", TP.FLOAT, [], [1.0])),
         h.make_node("Add", ["e", "one"], ["a"])],
        "add", [], [h.make_tensor_value_info("a", TP.FLOAT, ["Add_dim_0", "Add_dim_1"])])
    nodes = [h.make_node("Constant", [], ["c2"], value=h.make_tensor("", TP.INT64, [], [2])),
             h.make_node("Greater", ["n", "c2"], ["g"]),
             h.make_node("If", ["g"], ["y"], then_branch=then, else_branch=other),
             h.make_node("OptionalHasElement", ["y"], ["has"]),
             h.make_node("Not", ["has"], ["none"]),
             h.make_node("If", ["none"], ["out"], then_branch=keep, else_branch=add)]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", TP.FLOAT, ["b", 3]),
                                  h.make_tensor_value_info("n", TP.INT64, [])],
                     [h.make_tensor_value_info("out", TP.FLOAT, ["If_dim_0", "If_dim_1"])])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def test_a_scripted_optional_is_solved():
    sol = solve(scripted_optional())
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    # the optional's element is the Mul's: the other side holds none
    assert sol.shape("y") == "[b, 3]" and sol.optional("y") == {"has_element": None}
    assert sol.shape("out") == "[b, 3]"
    assert sol.bindings == {"If_dim_0": "b", "If_dim_1": 3}


def test_peers_on_the_scripted_optional():
    # onnxruntime's symbolic inference raises on the same model; onnx's does not link the
    # output's first axis to b
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

    with pytest.raises(Exception):
        SymbolicShapeInference.infer_shapes(scripted_optional(), auto_merge=True)
    inferred = onnx.shape_inference.infer_shapes(scripted_optional(), data_prop=True)
    out = {vi.name: vi for vi in inferred.graph.output}["out"]
    assert out.type.tensor_type.shape.dim[0].dim_param == "If_dim_0"


@pytest.mark.parametrize("n", [1, 3])
def test_runs_as_onnxruntime_does(n):
    ort = pytest.importorskip("onnxruntime")
    model = scripted_optional()
    feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3), "n": np.array(n)}
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)[0]
    assert np.array_equal(Program(model).run(feeds)["out"], want)


def test_written_back_as_optional_types():
    model = annotated_model(solve(scripted_optional()))
    vi = {v.name: v for v in model.graph.value_info}["y"]
    dims = vi.type.optional_type.elem_type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["b", 3]
    onnx.checker.check_model(model, full_check=True)


def optional_input_model():
    """z = OptionalGetElement(o) + 1 for an optional input o [N], and whether o holds one."""
    ot = h.make_optional_type_proto(h.make_tensor_type_proto(TP.FLOAT, ["N"]))
    nodes = [h.make_node("OptionalHasElement", ["o"], ["has"]),
             h.make_node("Identity", ["o"], ["same"])]
    g = h.make_graph(nodes, "g", [h.make_value_info("o", ot)],
                     [h.make_tensor_value_info("has", TP.BOOL, []), h.make_value_info("same", ot)])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    model.ir_version = 9
    return model


def test_import_keeps_the_optional(tmp_path):
    onnx.save(scripted_optional(), tmp_path / "s.onnx")
    onnx.save(optional_input_model(), tmp_path / "m.onnx")
    assert cli("import", tmp_path / "m.onnx", "-o", tmp_path / "m.json").returncode == 0
    g = json.loads((tmp_path / "m.json").read_text())
    assert g["inputs"]["o"] == {"dtype": "f32", "shape": "[N]", "optional": True}
    assert cli("import", tmp_path / "s.onnx", "-o", tmp_path / "s.json").returncode == 0
    s = json.loads((tmp_path / "s.json").read_text())
    attrs = s["nodes"][2]["attrs"]["else_branch"]["nodes"][0]["attrs"]
    assert attrs == {"type": {"dtype": "f32", "shape": "[b, 3]"}}  # (its dim_param kept)
    # the JSON graph solves as the model does
    sol = solve(str(tmp_path / "s.json"))
    assert sol.shape("out") == "[b, 3]" and sol.optional("y") == {"has_element": None}
    r = cli("solve", tmp_path / "s.json", "--format", "json")
    out = json.loads(r.stdout)["tensors"]
    assert out["y"]["optional"] == {"has_element": None} and out["y"]["shape"] == "[b, 3]"
    bad = json.loads((tmp_path / "m.json").read_text())
    bad["inputs"]["o"]["optional"] = 1
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    r = cli("solve", tmp_path / "bad.json")
    assert r.returncode == 2 and "inputs.o.optional" in r.stderr and "Traceback" not in r.stderr


def test_the_text_shows_opt_and_none(tmp_path):
    onnx.save(scripted_optional(), tmp_path / "s.onnx")
    r = cli("solve", tmp_path / "s.onnx")
    lines = {line.split()[0]: line.split()[1:] for line in r.stdout.splitlines()[2:] if line}
    assert lines["y"][:3] == ["opt(f32)", "[b,", "3]"]
    assert lines["If_2/else_branch/o2"][:2] == ["opt(f32)", "none"]


def test_the_command_line_runs_an_optional_input_left_out(tmp_path):
    onnx.save(optional_input_model(), tmp_path / "m.onnx")
    r = cli("run", tmp_path / "m.onnx", "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert "same: empty optional" in r.stdout and "has: bool []" in r.stdout
    assert not np.load(tmp_path / "out" / "has.npy") and \
        not (tmp_path / "out" / "same.npy").exists()
    np.save(tmp_path / "o.npy", np.ones(4, np.float32))
    r = cli("run", tmp_path / "m.onnx", "--input", f"o={tmp_path / 'o.npy'}", "-o",
            tmp_path / "out2")
    assert r.returncode == 0 and np.load(tmp_path / "out2" / "has.npy")
    assert np.load(tmp_path / "out2" / "same.npy").shape == (4,)


def test_a_plain_input_is_not_left_out():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[2]"}},
         "nodes": [{"op": "Identity", "inputs": ["x"], "outputs": ["y"]}]}
    with pytest.raises(Exception, match="missing input"):
        Program(g).run({})
    with pytest.raises(Exception, match="only an optional input may be empty"):
        Program(g).run({"x": None})


def test_a_loop_carries_an_optional():
    # the carried value starts empty and holds the body's element after an iteration
    tp = h.make_tensor_type_proto(TP.FLOAT, [2])
    body = h.make_graph(
        [h.make_node("Identity", ["c"], ["c_out"]),
         h.make_node("Optional", ["x"], ["o_out"])],
        "body", [h.make_tensor_value_info("i", TP.INT64, []),
                 h.make_tensor_value_info("c", TP.BOOL, []),
                 h.make_value_info("o", h.make_optional_type_proto(tp))],
        [h.make_tensor_value_info("c_out", TP.BOOL, []),
         h.make_value_info("o_out", h.make_optional_type_proto(tp))])
    nodes = [h.make_node("Optional", [], ["o0"], type=tp),
             h.make_node("Loop", ["m", "", "o0"], ["o_final"], body=body),
             h.make_node("OptionalHasElement", ["o_final"], ["has"])]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", TP.FLOAT, [2]),
                                  h.make_tensor_value_info("m", TP.INT64, [])],
                     [h.make_tensor_value_info("has", TP.BOOL, [])])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    sol = solve(model)
    assert sol.status == "ok" and sol.optional("o_final") == {"has_element": None}
    assert sol.shape("o_final") == "[2]"
    for m in (0, 2):
        got = Program(model).run({"x": np.ones(2, np.float32), "m": np.array(m)})["has"]
        assert bool(got) == (m > 0)
