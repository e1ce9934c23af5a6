"""The command line contract (INTERFACE §3): outputs, exit codes, one-line errors."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "shape_logic.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_solve_text():
    r = cli("solve", "examples/axon_conv.json")
    assert r.returncode == 0
    assert "[4, 8, 1031, 263]" in r.stdout
    assert "bindings: c = 8, h = 1031, n = 4, w = 263" in r.stdout


def test_solve_json():
    r = cli("solve", "examples/axon_conv.json", "--format", "json")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["bindings"] == {"c": 8, "h": 1031, "n": 4, "w": 263}
    assert out["tensors"]["x"]["shape"] == "[4, 8, 1031, 263]"


def test_solve_writes_the_annotated_graph(tmp_path):
    out = tmp_path / "annotated.json"
    r = cli("solve", "examples/relax_reshape.json", "-o", out)
    assert r.returncode == 0
    g = json.loads(out.read_text())
    assert g["annotations"]["lv1"] == {"shape": "[2*m*n]", "dtype": "f32"}
    original = json.loads((ROOT / "examples/relax_reshape.json").read_text())
    assert g["nodes"] == original["nodes"] and g["inputs"] == original["inputs"]


def test_shape_error_exits_1(tmp_path):
    g = {"inputs": {"a": {"shape": "[2, 3]"}, "b": {"shape": "[4, 5]"}},
         "nodes": [{"op": "MatMul", "inputs": ["a", "b"], "outputs": ["c"]}]}
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(g))
    r = cli("solve", p)
    assert r.returncode == 1
    assert "error[" in r.stdout


@pytest.mark.parametrize("content, reason", [
    ("{not json", "malformed JSON"),
    ("[1, 2]", "not a graph"),
    ('{"nodes": [{"op": "Relu", "inputs": ["ghost"], "outputs": ["y"]}]}', "not defined"),
    ('{"inputs": {"x": {"shape": "[2, +]"}}, "nodes": []}', "bad shape"),
    ('{"inputs": {"x": {"dtype": "float128"}}, "nodes": []}', "unknown dtype"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, content, reason):
    p = tmp_path / "g.json"
    p.write_text(content)
    r = cli("solve", p)
    assert r.returncode == 2
    assert reason in r.stderr
    assert str(p) in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_missing_file_exits_2():
    r = cli("solve", "no/such/graph.json")
    assert r.returncode == 2 and "no such file" in r.stderr


def test_ops_lists_and_prints_rules():
    r = cli("ops")
    assert r.returncode == 0 and "MatMul" in r.stdout
    r = cli("ops", "Conv")
    assert r.returncode == 0 and "Conv(X, W, B?)" in r.stdout
