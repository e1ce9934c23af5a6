"""Data-dependent dims (NonZero, Compress, TopK with a runtime k, Unique): a fresh symbol
each, with its bounds under "ranges", carried downstream; never a guess."""
import json

from shape_logic import solve

from .core.test_cli import cli

GRAPH = {
    "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 4]"},
               "c": {"dtype": "bool", "shape": "[s]"},
               "k": {"dtype": "i64", "shape": "[1]"}},
    "nodes": [
        {"name": "nz", "op": "NonZero", "inputs": ["x"], "outputs": ["idx"]},
        {"name": "t", "op": "Transpose", "inputs": ["idx"], "outputs": ["idx_t"]},
        {"name": "cx", "op": "Compress", "inputs": ["x", "c"], "outputs": ["kept"],
         "attrs": {"axis": 1}},
        {"name": "sm", "op": "Softmax", "inputs": ["kept"], "outputs": ["p"]},
        {"name": "cf", "op": "Compress", "inputs": ["x", "c"], "outputs": ["flat"]},
        {"name": "tk", "op": "TopK", "inputs": ["x", "k"], "outputs": ["v", "i"]},
    ],
}


def test_each_data_dependent_dim_is_a_fresh_symbol_with_bounds():
    sol = solve(GRAPH)
    assert sol.status == "ok"
    assert sol.shape("idx") == "[3, _1]" and sol.shape("idx_t") == "[_1, 3]"
    assert sol.shape("kept") == "[b, _2, 4]" and sol.shape("p") == "[b, _2, 4]"
    assert sol.shape("flat") == "[_3]"
    assert sol.shape("v") == "[b, s, _4]" and sol.shape("i") == "[b, s, _4]"
    assert sol.to_json()["ranges"] == {"_1": [0, "4*b*s"], "_2": [0, "s"],
                                       "_3": [0, "4*b*s"], "_4": [0, 4]}


def test_a_known_k_is_not_data_dependent():
    g = json.loads(json.dumps(GRAPH))
    g["inputs"].pop("k")
    g["initializers"] = {"k": {"dtype": "i64", "data": [2]}}
    sol = solve(g)
    assert sol.shape("v") == "[b, s, 2]"
    assert "_4" not in sol.to_json()["ranges"]


def test_ranges_in_text_output(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    r = cli("solve", p)
    assert r.returncode == 0
    assert "ranges: _1 in 0..4*b*s, _2 in 0..s, _3 in 0..4*b*s, _4 in 0..4" in r.stdout
