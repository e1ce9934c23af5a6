"""`shape-logic check`: declared shapes against what the rest of the graph implies."""
import json
import subprocess
import sys
from pathlib import Path

from shape_logic.check import check

ROOT = Path(__file__).resolve().parents[2]

GRAPH = {
    "inputs": {"x": {"dtype": "f32", "shape": "[b, 8]"}, "w": {"dtype": "f32", "shape": [8, 4]}},
    "nodes": [{"op": "MatMul", "inputs": ["x", "w"], "outputs": ["y"]},
              {"op": "Relu", "inputs": ["y"], "outputs": ["z"]}],
    "outputs": {"z": {"shape": "[b, 4]"}},
    "annotations": {"y": {"shape": "[16, ?]"}, "z": {"shape": "[?, 4]"}},
}


def test_implied_less_precise_and_assumed_declarations():
    sol, verdicts = check(GRAPH)
    assert sol.status == "ok"
    by_place = {v.place: v for v in verdicts}
    assert by_place["outputs.z"].status == "implied"
    assert by_place["annotations.z"].status == "implied"  # less precise than inferred: fine
    assumption = by_place["annotations.y"]
    assert assumption.status == "assumption" and assumption.declared == "[16, ?]"
    assert assumption.inferred == "[b, 4]"


def test_a_contradiction_is_a_shape_error(tmp_path):
    g = dict(GRAPH, outputs={"z": {"shape": "[b, 5]"}}, annotations={})
    p = tmp_path / "g.json"
    p.write_text(json.dumps(g))
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "check", str(p)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1
    assert "`z` is declared [b, 5] but the graph gives [b, 4]" in r.stdout


def test_check_cli_json(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "check", str(p), "--format",
                        "json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert {d["status"] for d in out["declarations"]} == {"implied", "assumption"}
