"""`shape-logic test-rule`: a rule file against a kernel on one node (shape_logic/rule_check.py)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "shape_logic.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_our_rule_against_our_kernel():
    r = cli("test-rule", "rules/Transpose.lp", "--kernel", "shape_logic/kernels/Transpose.py",
            "--case", "[2, 3, 5]", "--attr", "perm=[2, 0, 1]")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "[2, 3, 5] -> [5, 2, 3]   symbolic: [x0_2, x0_0, x0_1]   kernel agrees" in r.stdout


def test_a_wrong_rule_fails_and_bad_input_exits_2(tmp_path):
    (tmp_path / "Twice.lp").write_text(
        'same_rank(X, Y) :- op(N, "Twice"), input(N, 0, X), output(N, 0, Y).\n'
        'same_dtype(X, Y) :- op(N, "Twice"), input(N, 0, X), output(N, 0, Y).\n'
        'same_dim(Y, I, X, I) :- op(N, "Twice"), input(N, 0, X), output(N, 0, Y), '
        'rank(X, R), I = 0..R - 1.\n')  # wrong: the kernel doubles axis 0
    (tmp_path / "twice.py").write_text(
        "import numpy as np\n\ndef Twice(x):\n    return np.concatenate([x, x])\n")
    r = cli("test-rule", tmp_path / "Twice.lp", "--kernel", tmp_path / "twice.py",
            "--case", "[3, 4]")
    assert r.returncode == 1 and "FAIL  [3, 4] -> [3, 4]" in r.stdout
    assert "kernel: [6, 4]" in r.stdout
    r = cli("test-rule", tmp_path / "Twice.lp", "--case", "[3, b]")
    assert r.returncode == 2 and "not a shape of integers" in r.stderr
    r = cli("test-rule", tmp_path / "Twice.lp", "--kernel", tmp_path / "nope.py", "--case", "[3]")
    assert r.returncode == 2 and "nope.py" in r.stderr and "Traceback" not in r.stderr


def test_a_users_rule_file_is_still_checked(tmp_path):
    (tmp_path / "Relu.lp").write_text(':- op(N, "Relu").\n')
    g = tmp_path / "g.json"
    g.write_text('{"inputs": {"x": {"dtype": "f32", "shape": "[2]"}}, '
                 '"nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}]}')
    r = cli("solve", g, "--rules", tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "integrity constraints are not allowed" in r.stderr
