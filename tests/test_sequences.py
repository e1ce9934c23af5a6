"""ONNX sequences end to end: read from a model, solved, written back into value_info,
run (the command line's .npz in and out), and compared with onnxruntime and onnx's own
inference (encodings/sequences.lp, shape_logic/sequences.py)."""
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


def split_and_join():
    """x [b, t, 4] cut into t pieces, the last one inserted again, stacked and joined."""
    nodes = [h.make_node("SplitToSequence", ["x"], ["s"], axis=1),
             h.make_node("SequenceLength", ["s"], ["n"]),
             h.make_node("ConcatFromSequence", ["s"], ["y"], axis=0, new_axis=1),
             h.make_node("SequenceAt", ["s", "k"], ["z"]),
             h.make_node("SequenceInsert", ["s", "z"], ["s2"]),
             h.make_node("ConcatFromSequence", ["s2"], ["w"], axis=1)]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", TP.FLOAT, ["b", "t", 4])],
                     [h.make_tensor_value_info("y", TP.FLOAT, None),
                      h.make_tensor_value_info("n", TP.INT64, None),
                      h.make_tensor_value_info("w", TP.FLOAT, None)],
                     initializer=[onnx.numpy_helper.from_array(np.array(-1, np.int64), "k")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    model.ir_version = 9
    return model


def test_lengths_and_sums_through_a_sequence():
    sol = solve(split_and_join())
    assert sol.shape("s") == "[b, 1, 4]" and sol.sequence("s") == {"length": "t"}
    assert sol.sequence("s2") == {"length": "t + 1"}
    assert sol.shape("y") == "[t, b, 1, 4]" and sol.shape("w") == "[b, t + 1, 4]"
    # onnx's own inference gives the two lengths no name
    inferred = onnx.shape_inference.infer_shapes(split_and_join(), data_prop=True)
    outs = {vi.name: vi.type.tensor_type.shape.dim for vi in inferred.graph.output}
    assert outs["y"][0].dim_param.startswith("unk") and outs["w"][1].dim_param.startswith("unk")


def test_runs_as_onnxruntime_does():
    ort = pytest.importorskip("onnxruntime")
    model = split_and_join()
    for shape in ((2, 5, 4), (1, 3, 4)):
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        want = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})
        got = Program(model).run({"x": x})
        for name, w in zip(["y", "n", "w"], want):
            assert np.array_equal(got[name], w)


def test_written_back_as_sequence_types():
    model = annotated_model(solve(split_and_join()))
    vi = {v.name: v for v in model.graph.value_info}["s"]
    dims = vi.type.sequence_type.elem_type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["b", 1, 4]
    onnx.checker.check_model(model, full_check=True)


def sequence_input_model():
    st = h.make_sequence_type_proto(h.make_tensor_type_proto(TP.FLOAT, ["b", "N"]))
    nodes = [h.make_node("SequenceAt", ["s", "k"], ["z"]),
             h.make_node("SequenceLength", ["s"], ["n"]),
             h.make_node("SequenceInsert", ["s", "z"], ["s2"])]
    g = h.make_graph(nodes, "g", [h.make_value_info("s", st)],
                     [h.make_tensor_value_info("z", TP.FLOAT, None),
                      h.make_tensor_value_info("n", TP.INT64, None),
                      h.make_value_info("s2", st)],
                     initializer=[onnx.numpy_helper.from_array(np.array(0, np.int64), "k")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    model.ir_version = 9
    return model


def test_a_sequence_input_s_dim_params_are_no_common_sizes():
    # onnx's node tests declare seq(tensor([N])) for elements of different sizes: the
    # element type's names say nothing common
    sol = solve(sequence_input_model())
    assert sol.shape("s") == "[?, ?]" and sol.sequence("s") == {"length": None}
    assert sol.shape("z") == "[_1, _2]"


def test_the_command_line_takes_and_gives_npz(tmp_path):
    onnx.save(sequence_input_model(), tmp_path / "m.onnx")
    np.savez(tmp_path / "s.npz", **{"0": np.ones((2, 3), np.float32),
                                    "1": np.zeros((2, 5), np.float32)})
    r = cli("run", tmp_path / "m.onnx", "--input", f"s={tmp_path / 's.npz'}",
            "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert "s2: sequence of 3: float32 [2, 3], float32 [2, 5], float32 [2, 3]" in r.stdout
    with np.load(tmp_path / "out" / "s2.npz") as out:
        assert sorted(out.files) == ["0", "1", "2"] and out["1"].shape == (2, 5)
    np.save(tmp_path / "one.npy", np.ones((2, 3), np.float32))
    r = cli("run", tmp_path / "m.onnx", "--input", f"s={tmp_path / 'one.npy'}")
    assert r.returncode == 2 and "is a sequence" in r.stderr and "Traceback" not in r.stderr


def test_import_keeps_the_sequence_and_elements_are_checked(tmp_path):
    onnx.save(sequence_input_model(), tmp_path / "m.onnx")
    assert cli("import", tmp_path / "m.onnx", "-o", tmp_path / "g.json").returncode == 0
    g = json.loads((tmp_path / "g.json").read_text())
    assert g["inputs"]["s"] == {"dtype": "f32", "shape": "[?, ?]", "sequence": True}
    # a common size declared in our format is checked in every element
    g["inputs"]["s"]["shape"] = "[b, ?]"
    prog = Program(g)
    with pytest.raises(Exception, match=r"'s\[1\]'.*axis 0 is 3, expected b = 2"):
        prog.run({"s": [np.ones((2, 4), np.float32), np.ones((3, 4), np.float32)]})
    g["inputs"]["s"]["sequence"] = "yes"
    (tmp_path / "bad.json").write_text(json.dumps(g))
    r = cli("solve", tmp_path / "bad.json")
    assert r.returncode == 2 and "inputs.s.sequence" in r.stderr


def test_a_list_appended_in_a_scripted_loop():
    # torch.jit.script of `for i in range(x.shape[1]): outs.append(x[:, i] * 2)`, then
    # torch.stack(outs, 1) and torch.cat(outs, 0), as the legacy exporter writes it: a
    # Loop over a SequenceEmpty whose body inserts one [b, 3] per iteration
    body = h.make_graph(
        [h.make_node("Gather", ["x", "i"], ["col"], axis=1),
         h.make_node("SequenceInsert", ["acc", "col"], ["acc2"]),
         h.make_node("Identity", ["cond"], ["cond2"])], "body",
        [h.make_tensor_value_info("i", TP.INT64, []),
         h.make_tensor_value_info("cond", TP.BOOL, []),
         h.make_value_info("acc", h.make_sequence_type_proto(
             h.make_tensor_type_proto(TP.FLOAT, None)))],
        [h.make_tensor_value_info("cond2", TP.BOOL, []),
         h.make_value_info("acc2", h.make_sequence_type_proto(
             h.make_tensor_type_proto(TP.FLOAT, None)))])
    nodes = [h.make_node("Shape", ["x"], ["shape"]),
             h.make_node("Gather", ["shape", "one"], ["t"], axis=0),
             h.make_node("SequenceEmpty", [], ["empty"], dtype=TP.FLOAT),
             h.make_node("Loop", ["t", "true", "empty"], ["outs"], body=body),
             h.make_node("ConcatFromSequence", ["outs"], ["y"], axis=1, new_axis=1),
             h.make_node("ConcatFromSequence", ["outs"], ["c"], axis=0)]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", TP.FLOAT, ["b", "t", 3])],
                     [h.make_tensor_value_info("y", TP.FLOAT, None),
                      h.make_tensor_value_info("c", TP.FLOAT, None)],
                     initializer=[onnx.numpy_helper.from_array(np.array(1, np.int64), "one"),
                                  onnx.numpy_helper.from_array(np.array(True), "true")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    model.ir_version = 9
    sol = solve(model)
    assert sol.shape("outs") == "[b, 3]" and sol.sequence("outs") == {"length": "t"}
    assert sol.shape("y") == "[b, t, 3]" and sol.shape("c") == "[b*t, 3]"
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32)
    got = Program(model).run({"x": x})
    assert np.array_equal(got["y"], x) and got["c"].shape == (10, 3)


def test_a_run_checks_each_sequence_s_length():
    """The run checks a sequence's length as its elements' dims: t from x's axis 1 is the
    pieces' count, t + 1 after the insertion; a length the solve states that the run does
    not have is a shape mismatch, where a length the data decides would be bound."""
    from shape_logic.match_cast import Binder, Expected, ShapeMismatch
    from shape_logic.symbolic.expr import Expr

    prog = Program(split_and_join())
    x = np.zeros((2, 5, 4), np.float32)
    plan = prog._plan(prog._feeds({"x": x}), Binder())
    assert str(plan.expected["s"].length) == "5" and str(plan.expected["s2"].length) == "6"
    assert prog.run({"x": x})["n"] == 5
    binder = Binder()
    with pytest.raises(ShapeMismatch, match=r"sequence 's'.*runtime length 2, inferred 3"):
        binder.check("s", "output 0", Expected.of(None, None, length=Expr.const(3)),
                     [np.zeros(1)] * 2)
    binder.check("s", "output 0", Expected.of(None, None, length=Expr.sym("_4")),
                 [np.zeros(1)] * 2)
    assert binder.bindings == {"_4": 2}
