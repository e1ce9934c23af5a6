"""Every command in the docs runs, with the exit status and output the docs show.

In docs/*.md and README.md, a fenced block whose info string has `file=PATH` is a
file a reader creates; a `$ shape-logic ...` (or `$ python ...`) line in a block is
a command, and the lines after it, up to the next `$` line, are its output. A line
`...` in shown output stands for any lines; `# exit N` after a command is its exit
status (0 otherwise). Each document runs in a fresh directory holding its files and
links to the repository's examples/ and tests/, as a reader's checkout would.
"""
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import types
from pathlib import Path

import pytest

from shape_logic import cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```\s*$", re.M | re.S)


def blocks(text: str):
    """(info string, body) of every fenced block."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(text)]


def doc_files(text: str) -> dict:
    out = {}
    for info, body in blocks(text):
        m = re.search(r"\bfile=(\S+)", info)
        if m:
            out[m.group(1)] = body
    return out


def doc_commands(text: str) -> list:
    """(command line, exit status, shown output lines) in document order."""
    out = []
    for info, body in blocks(text):
        if "file=" in info:
            continue
        current = None
        for line in body.splitlines():
            if line.startswith("$ "):
                cmd = line[2:]
                m = re.search(r"\s+#\s*exit\s+(\d+)\s*$", cmd)
                status = int(m.group(1)) if m else 0
                cmd = cmd[:m.start()] if m else cmd
                current = (cmd, status, [])
                if cmd.startswith(("shape-logic ", "python ")):
                    out.append(current)
            elif current is not None:
                current[2].append(line.rstrip())
    return out


def matches(shown: list, actual: list) -> bool:
    """The shown lines equal the actual ones, `...` standing for any run of lines."""
    while shown and not shown[-1]:
        shown = shown[:-1]
    while actual and not actual[-1]:
        actual = actual[:-1]
    pattern = "\n".join(".*?" if line == "..." else re.escape(line) for line in shown)
    pattern = pattern.replace("\n.*?\n", "(?:\n.*?)?\n")
    return re.fullmatch(pattern, "\n".join(actual), re.S) is not None


def run(cmd: str, cwd: Path):
    argv = shlex.split(cmd)
    if argv[0] == "shape-logic":  # this checkout's CLI, in this process (no start-up cost)
        return run_cli(argv[1:], cwd)
    argv[0] = sys.executable if argv[0] == "python" else argv[0]
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env, timeout=300)


def run_cli(argv: list, cwd: Path):
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as e:  # argparse's usage errors
                code = e.code if isinstance(e.code, int) else 2
    finally:
        os.chdir(here)
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_docs_have_commands():
    names = {d.name for d in DOCS if doc_commands(d.read_text())}
    assert {"README.md", "RULES.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_command_in_the_doc(doc, tmp_path):
    text = doc.read_text()
    for link in ("examples", "tests", "rules", "bench"):
        (tmp_path / link).symlink_to(ROOT / link)
    for name, body in doc_files(text).items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    for cmd, status, shown in doc_commands(text):
        r = run(cmd, tmp_path)
        actual = (r.stdout + r.stderr).splitlines()
        assert r.returncode == status, f"{doc.name}: `{cmd}` exited {r.returncode}, " \
            f"the doc says {status}:\n{r.stdout}{r.stderr}"
        assert "Traceback" not in r.stderr, f"{doc.name}: `{cmd}`:\n{r.stderr}"
        if shown:
            assert matches(shown, [line.rstrip() for line in actual]), \
                f"{doc.name}: `{cmd}` printed:\n{r.stdout}{r.stderr}\nthe doc shows:\n" \
                + "\n".join(shown)


def test_matching_rules():
    assert matches(["a", "...", "c"], ["a", "b", "b2", "c"])
    assert matches(["a", "...", "c"], ["a", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["a", "..."], ["a", "x", "y"])


def test_rules_md_walks_through_a_custom_operator_and_its_mistakes():
    """RULES.md keeps its worked example (run above, as a reader would): a custom rule
    solved via --rules, checked against a kernel, a wrong rule caught, a syntax error."""
    text = (ROOT / "docs/RULES.md").read_text()
    files = doc_files(text)
    assert {"myrules/PairPool.lp", "pairpool.json", "pairpool_kernel.py",
            "broken/PairPool.lp", "rounddown/PairPool.lp"} <= set(files)
    cmds = doc_commands(text)
    solved = [c for c in cmds if "--rules myrules" in c[0] and c[1] == 0]
    assert any('  y       f32    [b, 4]  PairPool "pool"' in c[2] for c in solved)
    assert any("test-rule myrules/PairPool.lp --kernel" in c[0] and c[1] == 0 for c in cmds)
    assert any("test-rule rounddown/" in c[0] and c[1] == 1 for c in cmds)
    syntax = [c for c in cmds if "--rules broken" in c[0]]
    assert syntax and syntax[0][1] == 2
    assert syntax[0][2][0].startswith("shape-logic: broken/PairPool.lp: line 3: syntax error")
