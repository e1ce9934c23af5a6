"""An operator without a rule file: a warning and the safety net, or with --strict exit 2."""
import json
import re

from shape_logic import solve

from .test_cli import cli

GRAPH = {
    "inputs": {"x": {"dtype": "f32", "shape": "[b, 8]"}},
    "nodes": [
        {"name": "r", "op": "Relu", "inputs": ["x"], "outputs": ["a"]},
        {"name": "mystery", "op": "Frobnicate", "inputs": ["a"], "outputs": ["m"]},
        {"name": "t", "op": "Transpose", "inputs": ["m"], "outputs": ["mt"],
         "attrs": {"perm": [1, 0]}},
        {"name": "e", "op": "Exp", "inputs": ["x"], "outputs": ["z"]},
    ],
}


def test_unknown_operator_gets_the_safety_net_and_the_rest_is_solved():
    sol = solve(GRAPH)
    assert sol.status == "ok"
    assert sol.shape("a") == "[b, 8]" and sol.shape("z") == "[b, 8]"
    # the unknown node says nothing about its output: no dtype, only fresh names; its
    # consumer still applies (a 2-D perm makes both ranks 2, axes swapped)
    assert sol.dtype("m") is None and sol.shape("m") == "[_1, _2]"
    assert sol.shape("mt") == "[_2, _1]"
    (w,) = sol.warnings
    assert "Frobnicate" in w and '"mystery"' in w
    assert sol.to_json()["warnings"] == [w]


def test_cli_warns_on_stderr_in_text_mode(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    r = cli("solve", p)
    assert r.returncode == 0
    assert "[b, 8]" in r.stdout and "warning" not in r.stdout
    assert "warning: unknown operator 'Frobnicate'" in r.stderr


def test_cli_json_lists_the_warning(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    r = cli("solve", p, "--format", "json")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["tensors"]["z"]["shape"] == "[b, 8]"
    assert any("Frobnicate" in w for w in out["warnings"])


def test_strict_exits_2_naming_the_node_and_op(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    for command in ("solve", "check"):
        r = cli(command, p, "--strict")
        assert r.returncode == 2, command
        line, = r.stderr.strip().splitlines()
        assert "unknown operator 'Frobnicate'" in line and '"mystery"' in line
        assert str(p) in line


DOMAINS = {
    "inputs": {"x": {"dtype": "f32", "shape": "[b, 8]"}},
    "nodes": [
        {"name": "onnx_relu", "op": "Relu", "inputs": ["x"], "outputs": ["a"]},
        # the same name in another domain is another operator: Relu.lp describes ONNX's
        {"name": "ms_relu", "op": "Relu", "domain": "com.microsoft", "inputs": ["x"],
         "outputs": ["m"]},
        {"name": "gelu", "op": "Gelu", "domain": "com.microsoft", "inputs": ["x"],
         "outputs": ["g"]},
    ],
}


def test_an_operator_of_a_domain_its_rule_file_does_not_describe_is_unknown():
    sol = solve(DOMAINS)
    assert sol.status == "ok"
    assert sol.shape("a") == "[b, 8]"  # ONNX's Relu, by Relu.lp
    assert sol.dtype("m") is None and re.fullmatch(r"_\d+", sol.shape("m"))  # rank unknown
    assert sol.shape("g") == "[b, 8]"  # Gelu.lp: `% domains: ai.onnx com.microsoft`
    (w,) = sol.warnings
    assert "'Relu'" in w and '"ms_relu"' in w and "domain 'com.microsoft'" in w


def test_strict_refuses_an_operator_of_another_domain(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(DOMAINS))
    r = cli("solve", p, "--strict")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "'Relu' of domain 'com.microsoft'" in r.stderr and "nodes[1]" in r.stderr


def test_a_user_rule_file_says_which_domains_it_describes(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "Twice.lp").write_text(
        '%*! Twice(X) -> Y: X repeated along axis 0 (a custom domain). *%\n'
        '% domains: org.example\n'
        'arity("Twice", 1, 1).\n'
        'same_dtype(X, Y) :- op(N, "Twice"), input(N, 0, X), output(N, 0, Y).\n')
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[4]"}},
         "nodes": [{"name": "t", "op": "Twice", "domain": "org.example", "inputs": ["x"],
                    "outputs": ["y"]},
                   {"name": "u", "op": "Twice", "inputs": ["x"], "outputs": ["z"]}]}
    sol = solve(g, rules=[str(rules)])
    assert sol.dtype("y") == "f32" and sol.dtype("z") is None
    assert len(sol.warnings) == 1 and '"u"' in sol.warnings[0]
