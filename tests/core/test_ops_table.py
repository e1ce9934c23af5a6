"""`shape-logic ops`: one row per rule file, its kernel, its ONNX opsets; `ops OP` prints it."""
import json
import subprocess
import sys
from pathlib import Path

import onnx.defs

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "shape_logic.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_table_has_every_rule_file_with_kernel_and_opsets(tmp_path):
    (tmp_path / "PairPool.lp").write_text('arity("PairPool", 1, 1).\n')
    r = cli("ops", "--format", "json", "--rules", tmp_path)
    assert r.returncode == 0
    rows = {row["op"]: row for row in json.loads(r.stdout)}
    assert set(rows) == {p.stem for p in (ROOT / "rules").glob("*.lp")} | {"PairPool"}
    kernels = {p.stem for p in (ROOT / "shape_logic/kernels").glob("*.py")}
    for op, row in rows.items():
        assert row["kernel"] == (op in kernels)
    latest = onnx.defs.onnx_opset_version()
    assert rows["Reshape"]["rule_file"] == "rules/Reshape.lp"
    assert rows["Reshape"]["opsets"] == f"1-{latest}"
    assert {5, 13, 14} <= set(rows["Reshape"]["changed_in"])  # shape input (5), allowzero (14)
    assert rows["Gelu"]["changed_in"][0] == 20  # Gelu appeared in opset 20
    custom = rows["PairPool"]
    assert custom == {"op": "PairPool", "rule_file": str(tmp_path / "PairPool.lp"),
                      "kernel": False, "opsets": "custom", "changed_in": [],
                      "domains": ["ai.onnx"]}
    # an operator of another domain shows it (ai.onnx.ml's, onnxruntime's), one of both
    # its ONNX opsets and both domains
    assert rows["ZipMap"]["opsets"] == "ai.onnx.ml"
    assert rows["FastGelu"]["opsets"] == "com.microsoft"
    assert rows["ReorderInput"]["opsets"] == "com.microsoft.nchwc"
    assert rows["Pad"]["opsets"].startswith("1-") and rows["Pad"]["domains"] == [
        "ai.onnx", "com.microsoft"]


def test_text_table_and_rule_file():
    r = cli("ops")
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["operator", "rule", "file", "kernel", "onnx", "opsets",
                                "changed", "in", "opsets"]
    conv = next(line for line in lines if line.startswith("Conv "))
    assert conv.split()[:3] == ["Conv", "rules/Conv.lp", "yes"]
    r = cli("ops", "Conv")
    assert r.returncode == 0 and r.stdout == (ROOT / "rules/Conv.lp").read_text()
    r = cli("ops", "NoSuchOp")
    assert r.returncode == 2 and "NoSuchOp" in r.stderr and "Traceback" not in r.stderr
