"""Progress: a rich bar on stderr when a person watches a terminal; nothing when output
is piped or is JSON (shape_logic/progress.py)."""
import json
import os
import pty
import select
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
    # solving takes well over the delay (3000 nodes took 0.43 s on a quiet machine, just
    # over it, and the bar did not always show)
    path.write_text(json.dumps(transformer(8000)))
    return path


def on_ptys(*args) -> tuple[str, str]:
    """Run the CLI with stdout and stderr on two pseudo-terminals; what each received."""
    fds = [pty.openpty(), pty.openpty()]
    env = dict(os.environ, COLUMNS="120", TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "shape_logic.cli", *map(str, args)],
                            stdout=fds[0][1], stderr=fds[1][1], cwd=ROOT, env=env)
    for _, slave in fds:
        os.close(slave)
    got = {master: b"" for master, _ in fds}
    open_fds = set(got)
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [], 120)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                data = b""
            if data:
                got[fd] += data
            else:
                open_fds.discard(fd)
    proc.wait(timeout=120)
    for master, _ in fds:
        os.close(master)
    return tuple(got[m].decode("utf-8", "replace") for m, _ in fds)


# (--timeout 0 in each: what the tests check is the output, not the time budget, which a
# starved machine once spent in a parallel run: 60 s on a solve of 2 s, exit status 3)


def test_bar_on_a_terminal(big_graph):
    out, err = on_ptys("solve", big_graph, "--timeout", "0")
    # a phase and rich's bar, on stderr (which phase the last frame shows depends on timing)
    assert any(f" {phase} " in err for phase in ("load", "facts", "ground", "solve", "decode"))
    assert "━" in err
    assert "graph 'transformer_8000': ok" in out and "━" not in out
    assert "graph 'transformer_8000'" not in err  # the result went to stdout


def test_silent_with_json_on_a_terminal(big_graph):
    out, err = on_ptys("solve", big_graph, "--format", "json", "--timeout", "0")
    assert err == ""
    assert json.loads(out)["status"] == "ok"


def test_silent_when_piped(big_graph):
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "solve", big_graph,
                        "--timeout", "0"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and r.stderr == ""


def test_phases_and_steps_cost_nothing_when_off():
    assert progress._reporter.get() is None
    items = [1, 2, 3]
    assert progress.steps(items, "x") is items
    with progress.phase("ground"):
        pass
