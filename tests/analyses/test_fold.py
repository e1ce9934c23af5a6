"""Constant folding: the constant subgraph, the size decision per component, and folded
graphs that compute the same outputs as the originals."""
import json
import os
import sys

import numpy as np
import pytest

from shape_logic.analyses.constant import constant_graph
from shape_logic.analyses.folding import fold
from shape_logic.analyses.write_folded import write_folded
from shape_logic.cli import main
from shape_logic.executor import Program
from shape_logic.load import load_graph
from shape_logic.validate import validate

HERE = os.path.dirname(__file__)
GRAPH = os.path.join(HERE, "fold_graph.json")


def graph_dict(**changes):
    with open(GRAPH) as f:
        d = json.load(f)
    d.update(changes)
    return d


def x_value():
    return np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10


def test_runtime_and_constant_tensors():
    g = load_graph(GRAPH)
    cg = constant_graph(g, validate(g), known_shape=lambda t: t == "x")
    assert {"x", "xf", "h", "y", "ys", "out"} == cg.runtime
    assert {"xs", "b", "t", "w_t", "w2", "bb", "z", "o"} <= cg.constant
    # without the shape of x, Shape(x) reads a runtime tensor
    cg2 = constant_graph(g, validate(g))
    assert {"xs", "b", "t"} <= cg2.runtime
    assert {"w2", "bb", "z", "o"} <= cg2.constant


def test_components_and_size_decisions():
    f = fold(GRAPH)
    by_first = {d.component.nodes[0].name: d for d in f.decisions}
    assert sorted(by_first) == ["bias2", "ones", "shape", "wt", "zeros"]
    assert [n.name for n in by_first["shape"].component.nodes] == ["shape", "batch", "target"]
    assert by_first["shape"].component.sinks == ["t"]
    assert by_first["shape"].component.shape_reads == ["x"]
    # 5x256 zeros made from a 2-element shape: folding would grow the graph 400-fold
    assert not by_first["zeros"].fold and by_first["zeros"].out_elements == 1280
    assert by_first["wt"].fold and by_first["wt"].out_elements == 60
    assert by_first["ones"].fold  # 5 elements: under the small threshold
    # with no small threshold the 5 ones (from a 1-element shape) are kept too
    f0 = fold(GRAPH, small=0)
    assert [d.component.nodes[0].name for d in f0.decisions if not d.fold] == ["zeros", "ones"]
    assert f.values["t"].tolist() == [2, -1]


def test_folded_json_runs_the_same(tmp_path):
    out = str(tmp_path / "folded.json")
    assert main(["fold", GRAPH, "-o", out]) == 0
    with open(out) as fh:
        folded = json.load(fh)
    names = [n["name"] for n in folded["nodes"]]
    assert names == ["flatten", "fc", "add", "zeros", "scale", "out"]
    assert set(folded["initializers"]) == {"big_shape", "t", "w2", "bb", "o"}
    x = x_value()
    want = Program(GRAPH).run({"x": x})["out"]
    got = Program(out).run({"x": x})["out"]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_symbolic_batch_keeps_the_shape_computation(tmp_path):
    d = graph_dict(inputs={"x": {"dtype": "f32", "shape": "[n, 3, 4]"}})
    path = tmp_path / "g.json"
    path.write_text(json.dumps(d))
    f = fold(str(path))
    assert all(d.component.nodes[0].name != "shape" for d in f.decisions)
    out = str(tmp_path / "folded.json")
    write_folded(f, out)
    x = np.concatenate([x_value()] * 3)
    np.testing.assert_allclose(Program(out).run({"x": x})["out"],
                               Program(str(path)).run({"x": x})["out"], rtol=1e-6)


def test_large_constants_go_to_npy_files(tmp_path):
    d = graph_dict()
    d["initializers"]["wbig"] = {"file": "wbig.npy"}  # relative to the source graph
    d["nodes"] += [
        {"name": "negb", "op": "Neg", "inputs": ["wbig"], "outputs": ["nb"]},
        {"name": "side", "op": "Add", "inputs": ["nb", "nb"], "outputs": ["nb2"]},
        {"name": "sx", "op": "ReduceSum", "inputs": ["x"], "outputs": ["s"],
         "attrs": {"keepdims": 0}},
        {"name": "scaled", "op": "Mul", "inputs": ["wbig", "s"], "outputs": ["ws"]}]
    d["outputs"] = {"out": {}, "nb2": {}, "ws": {}}
    src = tmp_path / "src"
    src.mkdir()
    np.save(src / "wbig.npy", np.linspace(0, 1, 1600, dtype=np.float32).reshape(40, 40))
    (src / "g.json").write_text(json.dumps(d))
    out = tmp_path / "out" / "folded.json"
    out.parent.mkdir()
    f = fold(str(src / "g.json"))
    write_folded(f, str(out))
    folded = json.loads(out.read_text())
    # 1600 elements from 1600: folded, and too big to inline
    assert folded["initializers"]["nb2"] == {"dtype": "f32", "shape": [40, 40],
                                             "file": "folded.nb2.npy"}
    assert folded["initializers"]["wbig"] == {"file": "../src/wbig.npy"}
    x = x_value()
    want = Program(str(src / "g.json")).run({"x": x})
    got = Program(str(out)).run({"x": x})
    assert set(got) == {"out", "nb2", "ws"}
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6)


def test_undeclared_outputs_stay_outputs(tmp_path):
    g = {"inputs": {"x": {"dtype": "f32", "shape": [2]}},
         "initializers": {"w": {"dtype": "f32", "shape": [2], "data": [1, 2]}},
         "nodes": [{"name": "r", "op": "Relu", "inputs": ["x"], "outputs": ["y"]},
                   {"name": "n", "op": "Neg", "inputs": ["w"], "outputs": ["nw"]}]}
    out = str(tmp_path / "f.json")
    write_folded(fold(g), out)
    got = Program(out).run({"x": np.array([-1, 1], dtype=np.float32)})
    assert sorted(got) == ["nw", "y"] and got["nw"].tolist() == [-1, -2]


def test_format_mismatch_is_an_input_error(tmp_path, capsys):
    assert main(["fold", GRAPH, "-o", str(tmp_path / "g.onnx")]) == 2
    out = capsys.readouterr()
    assert "written as JSON" in out.err and out.out == ""


def test_light_model_folds_per_component_and_runs_the_same(tmp_path):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
    from executor import light_models, load_case

    path = next(p for p in light_models() if p.endswith("light_squeezenet.onnx"))
    model, feeds, want = load_case(path)
    f = fold(model)
    kept = [d for d in f.decisions if not d.fold]
    folded = [d for d in f.decisions if d.fold]
    # weights made by ConstantOfShape from a 4-element shape are kept, biases folded
    assert kept and folded
    assert all(d.out_elements > 1024 for d in kept)
    assert all(d.component.nodes[0].op == "ConstantOfShape" for d in f.decisions)
    out = str(tmp_path / "folded.onnx")
    write_folded(f, out)
    import onnx

    m = onnx.load(out)
    assert len(m.graph.node) == len(model.graph.node) - len(folded)
    (got,) = Program(out, check=False).run(feeds).values()
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("small", [0, 1024])
def test_cli_prints_decisions(small, tmp_path, capsys):
    out = str(tmp_path / "f.json")
    assert main(["fold", GRAPH, "-o", out, "--small", str(small)]) == 0
    text = capsys.readouterr().out
    assert 'keep  "zeros": 1280 elements > 3 input elements' in text
    assert ("keep  \"ones\"" in text) == (small == 0)


def test_a_folded_scalar_stays_a_scalar():
    # a scalar sink was written as [1] (np.ascontiguousarray makes 0-d arrays 1-d)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [], "data": 1}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
                   {"op": "Gather", "inputs": ["s", "one"], "outputs": ["n"]}],
         "outputs": {"n": {}}}
    folding = fold(g)
    assert folding.values["n"].shape == () and folding.values["n"] == 3


def test_sequences_and_optionals_are_not_folded():
    # no initializer holds one: the component is kept (a sequence of equal elements was
    # stacked into a tensor, an empty optional written as an array of None)
    g = {"initializers": {"a": {"dtype": "i64", "data": [1, 2]},
                          "b": {"dtype": "i64", "data": [3, 4]}},
         "nodes": [{"op": "SequenceConstruct", "inputs": ["a", "b"], "outputs": ["s"]},
                   {"op": "Optional", "outputs": ["o"], "attrs": {"type": {"dtype": "f32"}}}],
         "outputs": {"s": {}, "o": {}}}
    folding = fold(g)
    assert not folding.values and not any(d.fold for d in folding.decisions)
    assert {d.reason.split(" (")[0] for d in folding.decisions} == \
        {"'s' is a sequence", "'o' is an optional"}
