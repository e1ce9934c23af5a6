"""A graph's answer is the same whatever the process solved before: the first solve of a
process, a second solve of the same graph and one after other graphs print the same JSON
(asp/program.py gives clingo the same statements each time; the arithmetic spells a value
by the order of the grounding, which follows the program's)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import shape_logic

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GRAPHS = sorted(str(p) for p in EXAMPLES.glob("*.json")) + [str(EXAMPLES / "tiny_mlp.onnx")]

# solves each path given, in order, in one process, and prints their JSON, one per line
_SOLVE_ALL = """
import json, sys
import shape_logic
for path in sys.argv[1:]:
    print(json.dumps(shape_logic.solve(path).to_json(), sort_keys=True))
"""


def _solved_in_a_new_process(paths: list) -> list:
    out = subprocess.run([sys.executable, "-c", _SOLVE_ALL, *paths], capture_output=True,
                         text=True, timeout=600, check=True, env=dict(os.environ))
    return [json.loads(line) for line in out.stdout.splitlines()]


def _answer(path) -> dict:
    return json.loads(json.dumps(shape_logic.solve(path).to_json(), sort_keys=True))


def test_the_examples_are_answered_alike_after_any_history():
    # a new process solves them in reverse order: each has another history there than here
    # (where this test's own solves and, in a full run, the suite's come before)
    there = _solved_in_a_new_process(GRAPHS[::-1])[::-1]
    here = [_answer(p) for p in GRAPHS]
    again = [_answer(p) for p in GRAPHS]
    assert len(there) == len(GRAPHS)
    for path, a, b, c in zip(GRAPHS, there, here, again):
        assert a == b == c, Path(path).name


def test_a_longformer_s_requirements_are_spelled_alike_in_a_new_process(tmp_path):
    """Longformer's windows require a size that the arithmetic reaches two ways,
    `32*((seq + 3*seq%4)//4)` and `32*seq - 32*(3*seq//4)` (equal at every seq); which one
    a layer meets first follows the grounding's order. A process's first solve gave our
    files to clingo as text, whole, and printed the first spelling; every later solve gave
    the parsed statements that can fire, and printed the second."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import hf_models

    import onnx

    model, _, _ = hf_models.hf_models2.longformer()
    path = tmp_path / "longformer.onnx"
    onnx.save(model, str(path))
    first = _solved_in_a_new_process([str(path)])[0]
    shape_logic.solve(EXAMPLES / "axon_attention.json")
    here, again = _answer(path), _answer(path)
    assert first == here == again
    assert len(first["inequalities"]) == 3
