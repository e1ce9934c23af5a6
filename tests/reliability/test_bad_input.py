"""Every class of bad input exits 2 with one line naming the file, the place and the reason.

Each case is data: the files to write (a graph, an ONNX model, a rules directory), and
the three things the one line must name. The CLI runs in-process (an exception escaping
`main` fails the test, as a traceback would); one case also runs as a real process.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shape_logic.cli import main

ROOT = Path(__file__).resolve().parents[2]
RELU = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3]"}},
        "nodes": [{"name": "r", "op": "Relu", "inputs": ["x"], "outputs": ["y"]}]}
GOOD_RELU_RULE = 'same_shape(X, Y) :- op(N, "Relu"), input(N, 0, X), output(N, 0, Y).\n'


def graph(**changes):
    g = json.loads(json.dumps(RELU))
    g.update(changes)
    return g


def node(**changes):
    return graph(nodes=[{"name": "r", "op": "Relu", "inputs": ["x"], "outputs": ["y"], **changes}])


def softmax(attrs):
    return graph(nodes=[{"name": "s", "op": "Softmax", "inputs": ["x"], "outputs": ["y"],
                         "attrs": attrs}])


def onnx_bytes(kind: str) -> bytes:
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      [2, 2**63 - 1] if kind == "absurd" else [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    src = "ghost" if kind == "undefined" else "x"
    nodes = [helper.make_node("Relu", [src], ["y"], name="r")]
    if kind == "cycle":
        nodes = [helper.make_node("Add", ["x", "z"], ["y"], name="a"),
                 helper.make_node("Relu", ["y"], ["z"], name="b")]
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 18)])
    data = model.SerializeToString()
    if kind == "truncated":
        return data[: len(data) - 7]
    if kind == "corrupt":
        return b"\xff\xff\xff" + data[3:]
    return data


# name -> (files to write, extra CLI args, what the line names: [file, place, reason])
# files: "g.json" (dict or raw text), "m.onnx" (bytes), "rules/Relu.lp" (text)
CASES = {
    "malformed JSON": ({"g.json": '{"nodes": [}'}, [], ["g.json", "line 1 column 12",
                                                      "malformed JSON"]),
    "JSON nested too deeply": ({"g.json": "[" * 100000 + "]" * 100000}, [],
                               ["g.json", "", "nested too deeply"]),
    "not a graph: a list": ({"g.json": "[1, 2]"}, [], ["g.json", "", "not a graph"]),
    "not a graph: no nodes": ({"g.json": {"inputs": {}}}, [], ["g.json", "", "no \"nodes\""]),
    "not a graph: unknown key": ({"g.json": graph(edges=[])}, [],
                                 ["g.json", "top level", "unknown key 'edges'"]),
    "undefined tensor": ({"g.json": node(inputs=["ghost"])}, [],
                         ["g.json", 'nodes[0] "r".inputs[0]', "'ghost' is not defined"]),
    "cycle": ({"g.json": graph(nodes=[
        {"name": "a", "op": "Add", "inputs": ["x", "z"], "outputs": ["y"]},
        {"name": "b", "op": "Relu", "inputs": ["y"], "outputs": ["z"]}])}, [],
        ["g.json", 'nodes[0] "a"', "cycle"]),
    "two producers": ({"g.json": graph(nodes=[
        {"name": "a", "op": "Relu", "inputs": ["x"], "outputs": ["y"]},
        {"name": "b", "op": "Relu", "inputs": ["x"], "outputs": ["y"]}])}, [],
        ["g.json", 'nodes[1] "b".outputs[0]', "also by nodes[0] \"a\".outputs[0]"]),
    "a NUL in a name": ({"g.json": node(outputs=["y\u0000z"])}, [],
                        ["g.json", 'nodes[0] "r".outputs[0]', "NUL character"]),
    "a NUL in a node's name": ({"g.json": node(name="r\u0000")}, [],
                               ["g.json", ".name", "NUL character"]),
    "a NUL in a graph input's name": ({"g.json": graph(inputs={
        "x\u0000": {"dtype": "f32", "shape": "[2, 3]"}}, nodes=[])}, [],
        ["g.json", "inputs", "NUL character"]),
    "a NUL in a string attribute": ({"g.json": node(op="MyOp", attrs={"note": "a\u0000b"})}, [],
                                    ["g.json", "attrs.note", "NUL character"]),
    "a NUL in a list of strings": ({"g.json": node(op="MyOp",
                                                                attrs={"notes": ["a\u0000"]})}, [],
                                   ["g.json", "attrs.notes", "NUL character"]),
    "a NUL in an attribute's name": ({"g.json": node(op="MyOp", attrs={"k\u0000": 1})}, [],
                                     ["g.json", "attrs", "NUL character"]),
    "producing a graph input": ({"g.json": node(outputs=["x"])}, [],
                                ["g.json", 'nodes[0] "r".outputs[0]', "also by inputs.x"]),
    "bad shape syntax": ({"g.json": graph(inputs={"x": {"shape": "[2, (3]"}})}, [],
                         ["g.json", "inputs.x.shape", "expected ')'"]),
    "shape nested too deeply": ({"g.json": graph(inputs={"x": {
        "shape": "[" + "(" * 3000 + "1" + ")" * 3000 + "]"}})}, [],
        ["g.json", "inputs.x.shape", "nested too deeply"]),
    "name both shape variable and dim": ({"g.json": graph(inputs={
        "x": {"shape": "n"}, "z": {"shape": "[n, 2]"}})}, [],
        ["g.json", "inputs.z.shape", "'n' is used as a shape variable"]),
    "negative dim": ({"g.json": graph(inputs={"x": {"shape": "[2, -3]"}})}, [],
                     ["g.json", "inputs.x.shape", "negative"]),
    "negative dim expression": ({"g.json": graph(inputs={"x": {"shape": "[2, 1 - 4]"}})}, [],
                                ["g.json", "inputs.x.shape", "negative"]),
    "absurd dim": ({"g.json": graph(inputs={"x": {"shape": [2, 2**63]}})}, [],
                   ["g.json", "inputs.x.shape", "> 2^62"]),
    "absurd dim beyond the caps": ({"g.json": graph(inputs={"x": {"shape": f"[{10**30}]"}})}, [],
                                   ["g.json", "inputs.x.shape", "exceeds 2^64"]),
    "expression blow-up in a shape": ({"g.json": graph(inputs={"x": {
        "shape": "[" + "*".join(["(a + b)"] * 40) + "]"}})}, [],
        ["g.json", "inputs.x.shape", "degree"]),
    "unknown dtype": ({"g.json": graph(inputs={"x": {"dtype": "float128"}})}, [],
                      ["g.json", "inputs.x.dtype", "unknown dtype"]),
    "attribute of the wrong type": ({"g.json": softmax({"axis": "one"})}, [],
                                    ["g.json", 'nodes[0] "s".attrs.axis', "must be an integer"]),
    "attribute list element of the wrong type": ({"g.json": graph(nodes=[
        {"name": "t", "op": "Transpose", "inputs": ["x"], "outputs": ["y"],
         "attrs": {"perm": [0, "a"]}}])}, [],
        ["g.json", 'nodes[0] "t".attrs.perm', "element 1: must be an integer"]),
    "attribute out of the int64 range": ({"g.json": softmax({"axis": 2**70})}, [],
                                         ["g.json", 'nodes[0] "s".attrs.axis', "int64 range"]),
    "attribute unknown to the operator": ({"g.json": softmax({"axes": 1})}, [],
                                          ["g.json", 'nodes[0] "s".attrs.axes',
                                           "no attribute 'axes'"]),
    "attribute null": ({"g.json": softmax({"axis": None})}, [],
                       ["g.json", "nodes[0].attrs.axis", "cannot be null"]),
    "tensor attribute with the wrong size": ({"g.json": graph(nodes=[
        {"name": "c", "op": "Constant", "outputs": ["y"],
         "attrs": {"value": {"dtype": "i64", "shape": [3], "data": [1, 2]}}}])}, [],
        ["g.json", "nodes[0].attrs.value", "bad tensor attribute"]),
    "ONNX truncated": ({"m.onnx": onnx_bytes("truncated")}, [],
                       ["m.onnx", "", "not a readable ONNX model"]),
    "ONNX corrupt": ({"m.onnx": onnx_bytes("corrupt")}, [],
                     ["m.onnx", "", "not a readable ONNX model"]),
    "ONNX empty file": ({"m.onnx": b""}, [], ["m.onnx", "", "no graph"]),
    "ONNX undefined tensor": ({"m.onnx": onnx_bytes("undefined")}, [],
                              ["m.onnx", 'nodes[0] "r".inputs[0]', "'ghost' is not defined"]),
    "ONNX absurd dim": ({"m.onnx": onnx_bytes("absurd")}, [],
                        ["m.onnx", "graph.input[x]", "> 2^62"]),
    "ONNX cycle": ({"m.onnx": onnx_bytes("cycle")}, [], ["m.onnx", 'nodes[0] "a"', "cycle"]),
    "rule file with a syntax error": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE + "same_rank(X, Y) :- op(N) input(N).\n"},
        ["--rules", "rules"], ["Relu.lp", "line 2", "syntax error"]),
    "rule file with an undeclared predicate": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE
         + 'same_rank(X, Y) :- op(N, "Relu"), input(N, 0, X), outptu(N, 0, Y).\n'},
        ["--rules", "rules"], ["Relu.lp", "line 2", "outptu(N,0,Y) uses a predicate that no"]),
    "rule file with #script": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE
         + "#script (python)\nimport os\nos.system('touch pwned')\n#end.\n"},
        ["--rules", "rules"], ["Relu.lp", "line 2", "embedded scripts (#script) are not allowed"]),
    "rule file with #include": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE + '#include "/etc/passwd".\n'},
        ["--rules", "rules"], ["Relu.lp", "line 2", "#include is not allowed"]),
    "rule file with #external": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE + "#external act(x).\n"},
        ["--rules", "rules"], ["Relu.lp", "line 2", "reserved for the solver"]),
    "rule file calling Python internals": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE
         + 'dim(Y, 0, @__init__(1)) :- op(N, "Relu"), output(N, 0, Y).\n'},
        ["--rules", "rules"], ["Relu.lp", "line 2", "@__init__ is not an @-function"]),
    "an op that is not a name": ({"g.json": node(op={})}, [],
                                 ["g.json", "nodes[0]", "a node needs an \"op\""]),
    "a function's declaration that is not an object": (
        {"g.json": graph(functions={"f": {"inputs": ["a"], "outputs": {"b": 3}, "nodes": [
            {"op": "Relu", "inputs": ["a"], "outputs": ["b"]}]}},
            nodes=[{"name": "r", "op": "f", "inputs": ["x"], "outputs": ["y"]}])}, [],
        ["g.json", "functions.f.outputs.b", "a declaration must be an object"]),
    "rule file with an integrity constraint": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE + ':- op(N, "Relu").\n'},
        ["--rules", "rules"], ["Relu.lp", "line 2", "integrity constraints are not allowed"]),
    "rule file with a choice rule": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE
         + '{ rank(Y, 5) } :- op(N, "Relu"), output(N, 0, Y).\n'},
        ["--rules", "rules"], ["Relu.lp", "line 2", "choice rules are not allowed"]),
    "rule file with optimization": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE + "#minimize { 1, T : rank(T, 2) }.\n"},
        ["--rules", "rules"], ["Relu.lp", "line 2", "optimization"]),
    "rule file calling an @-function with terms it does not take": (
        {"g.json": RELU, "rules/Relu.lp": GOOD_RELU_RULE
         + 'dim(Y, 0, @calc(3, 4)) :- op(N, "Relu"), output(N, 0, Y).\n'},
        ["--rules", "rules"], ["Relu.lp", "", "an @-function failed while grounding"]),
}


def write_case(tmp_path: Path, files: dict) -> Path:
    target = None
    for name, content in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content if isinstance(content, str) else json.dumps(content))
        if name.endswith((".json", ".onnx")):
            target = p
    return target


@pytest.mark.parametrize("name", CASES)
def test_bad_input_exits_2_with_one_line(name, tmp_path, capsys, monkeypatch):
    files, extra, (file, place, reason) = CASES[name]
    target = write_case(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    for command in ("solve", "check"):
        code = main([command, str(target), *extra])
        err = capsys.readouterr().err
        assert code == 2, f"{command}: exit {code}, stderr {err!r}"
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert file in lines[0] and place in lines[0] and reason in lines[0], lines[0]
    assert not (tmp_path / "pwned").exists()


def test_a_script_rule_file_is_rejected_by_the_real_command(tmp_path):
    files, extra, (file, place, reason) = CASES["rule file with #script"]
    target = write_case(tmp_path, files)
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "solve", str(target), *extra],
                       capture_output=True, text=True, cwd=tmp_path,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert reason in r.stderr and "line 2" in r.stderr
    assert not (tmp_path / "pwned").exists()


def test_every_project_rule_file_passes_the_checks():
    """The checks reject nothing the project itself writes (solving checks only users'
    rule files: asp/program.load_rule_file)."""
    from shape_logic.asp.program import available_ops
    from shape_logic.asp.rule_check import check_rule_text

    ops = available_ops()
    assert len(ops) > 100
    for op, path in ops.items():
        check_rule_text(path.read_text(), str(path))
