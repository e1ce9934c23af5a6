"""Progress: a rich bar on stderr when a person watches a terminal; nothing when output
is piped or is JSON (shape_logic/progress.py)."""
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from shape_logic import progress

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def big_graph(tmp_path_factory):
    sys.path.insert(0, str(ROOT))
    from bench.synthetic import transformer

    path = tmp_path_factory.mktemp("progress") / "t.json"
    path.write_text(json.dumps(transformer(600)))  # solving takes longer than the delay
    return path


def on_pty(*args) -> str:
    """Run the CLI with stdout and stderr on a pseudo-terminal; everything it wrote."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120", TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "shape_logic.cli", *map(str, args)],
                            stdout=slave, stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_bar_on_a_terminal(big_graph):
    out = on_pty("solve", big_graph)
    assert "ground" in out and "━" in out  # the phase and rich's bar
    assert "graph 'transformer_600': ok" in out


def test_silent_with_json_on_a_terminal(big_graph):
    out = on_pty("solve", big_graph, "--format", "json")
    assert "━" not in out and "ground" not in out
    assert json.loads(out)["status"] == "ok"


def test_silent_when_piped(big_graph):
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "solve", big_graph],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and r.stderr == ""


def test_phases_and_steps_cost_nothing_when_off():
    assert progress._reporter.get() is None
    items = [1, 2, 3]
    assert progress.steps(items, "x") is items
    with progress.phase("ground"):
        pass
