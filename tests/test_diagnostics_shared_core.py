"""Errors that share one core list it once in the text: tf2onnx's NASNet (inconsistent at
every size) gave five errors, each with the same core of 150 nodes, printed five times;
the later ones now name the error that listed it. The JSON keeps every core whole."""
import json

import shape_logic
from shape_logic.render_text import render_solution

# two nodes each broadcasting a [2, 3] against a [4, 5]: an error at each, cores apart
GRAPH = {"inputs": {"a": {"dtype": "f32", "shape": [2, 3]},
                    "b": {"dtype": "f32", "shape": [4, 5]}},
         "nodes": [{"name": "add", "op": "Add", "inputs": ["a", "b"], "outputs": ["c"]},
                   {"name": "mul", "op": "Mul", "inputs": ["a", "b"], "outputs": ["d"]}]}


def _core_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("= core")]


def test_cores_apart_are_each_listed():
    sol = shape_logic.solve(json.loads(json.dumps(GRAPH)))
    assert len(sol.diagnostics) == 2
    lines = _core_lines(render_solution(sol))
    assert len(lines) == 2 and all("node " in line for line in lines)
    assert lines[0] != lines[1]


def test_a_core_met_again_names_the_error_that_listed_it():
    sol = shape_logic.solve(json.loads(json.dumps(GRAPH)))
    first, second = sol.diagnostics
    second.core = list(first.core)
    lines = _core_lines(render_solution(sol))
    assert lines[0].startswith("= core: inputs.a, inputs.b, node ")
    assert lines[1] == f"= core: the same {len(first.core)} members as error 1's above"
    # (the JSON lists it at each error)
    assert [d["core"] for d in sol.to_json()["diagnostics"]] == [first.core, first.core]
