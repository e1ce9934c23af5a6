"""Functions (INTERFACE §2): each call site solved on its own; signatures (--signature)."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import shape_logic
from shape_logic.errors import InputError
from shape_logic.signature import signatures

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def test_one_function_at_two_shapes():
    sol = shape_logic.solve(str(EXAMPLES / "function_calls.json"))
    assert sol.status == "ok"
    assert (sol.shape("ya"), sol.shape("on_matrix/m")) == ("[2, 3]", "[2, 1]")
    assert (sol.shape("yb"), sol.shape("on_vector/m")) == ("[n]", "[1]")


def test_function_calls_run():
    a, b = np.random.rand(2, 3).astype(np.float32), np.random.rand(5).astype(np.float32)
    out = shape_logic.run(str(EXAMPLES / "function_calls.json"), {"a": a, "b": b})
    np.testing.assert_allclose(out["ya"], np.exp(a) / np.exp(a).sum(-1, keepdims=True),
                               rtol=1e-5)
    assert out["yb"].shape == (5,)


def test_signatures():
    assert signatures(str(EXAMPLES / "function_calls.json")) == \
        {"normalize": "normalize: a@[b] -> a@[b]"}
    assert signatures(str(EXAMPLES / "axon_attention_function.json")) == \
        {"attention": "attention: [m, a], [n, a], [n, b] -> [m, b]"}


def test_function_annotations_are_per_call_site():
    # the function's `k` is a new name at every call: [3, k] and [5, k] do not clash
    g = {"inputs": {"p": {"dtype": "f32", "shape": "[3, 4]"},
                    "q": {"dtype": "f32", "shape": "[5, 7]"}},
         "functions": {"f": {"inputs": {"x": {"shape": "[k, ?]"}}, "outputs": ["y"],
                             "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}]}},
         "nodes": [{"name": "c1", "op": "f", "inputs": ["p"], "outputs": ["yp"]},
                   {"name": "c2", "op": "f", "inputs": ["q"], "outputs": ["yq"]}]}
    sol = shape_logic.solve(g)
    assert sol.status == "ok" and sol.shape("yq") == "[5, 7]" and sol.bindings == {}


def test_a_call_with_the_wrong_number_of_inputs():
    g = {"inputs": {"p": {"dtype": "f32"}},
         "functions": {"f": {"inputs": ["x", "z"], "outputs": ["y"],
                             "nodes": [{"op": "Add", "inputs": ["x", "z"], "outputs": ["y"]}]}},
         "nodes": [{"name": "c", "op": "f", "inputs": ["p"], "outputs": ["y"]}]}
    with pytest.raises(InputError, match="takes 2 inputs"):
        shape_logic.solve(g)


def test_cli_signature_json():
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "solve", "--signature",
                        "--format", "json", str(EXAMPLES / "function_calls.json")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["signatures"]["normalize"] == "normalize: a@[b] -> a@[b]"
