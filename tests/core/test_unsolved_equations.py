"""Equations the rules cannot solve: an expression equal to an integer is that integer
in the arithmetic after it (asp/relating.py `_rewrite`), and past UNSOLVED_PAIRS of them
arithmetic stops with a warning, as it does past a conflict.

Found by mutating HF SegFormer (a Transpose's perm made the identity): its LayerNorm's
weight of 8 then meets the flattened positions, 8 = ((h + 3)//4)*((w + 3)//4). Both
values went on through the exporter's Shape/Gather/Concat arithmetic, each spelling
multiplying the next, and the grounding never ended (the time limit stopped it)."""
import numpy as np

import shape_logic
from shape_logic.asp import relating
from shape_logic.solver import solve


def _const(name, data):
    return {"op": "Constant", "inputs": [], "outputs": [name],
            "attrs": {"value": {"dtype": "i64", "shape": [len(data)], "data": data}}}


def patch_embedding(transposed: bool) -> dict:
    """SegFormer's patch embedding as exported: a Conv by 4, flattened to [b, 8, positions]
    by a shape computed from the Conv's, then (if `transposed`) [b, positions, 8], then a
    LayerNorm of 8 over the last axis."""
    nodes = [
        {"op": "Conv", "inputs": ["x", "wc", "bc"], "outputs": ["c"],
         "attrs": {"kernel_shape": [7, 7], "pads": [3, 3, 3, 3], "strides": [4, 4]}},
        {"op": "Shape", "inputs": ["c"], "outputs": ["cs"]},
        _const("zero", [0]), _const("two", [2]), _const("minus_one", [-1]),
        {"op": "Slice", "inputs": ["cs", "zero", "two", "zero"], "outputs": ["lead"]},
        {"op": "Concat", "inputs": ["lead", "minus_one"], "outputs": ["to"],
         "attrs": {"axis": 0}},
        {"op": "Reshape", "inputs": ["c", "to"], "outputs": ["flat"]},
        {"op": "Transpose", "inputs": ["flat"], "outputs": ["t"],
         "attrs": {"perm": [0, 2, 1] if transposed else [0, 1, 2]}},
        {"op": "LayerNormalization", "inputs": ["t", "g", "bc"], "outputs": ["y"],
         "attrs": {"axis": -1}},
    ]
    return {"inputs": {"x": {"dtype": "f32", "shape": "[b, 3, h, w]"}},
            "initializers": {
                "wc": {"dtype": "f32", "shape": "[8, 3, 7, 7]",
                       "data": np.full((8, 3, 7, 7), 0.01).tolist()},
                "bc": {"dtype": "f32", "shape": "[8]", "data": [0.0] * 8},
                "g": {"dtype": "f32", "shape": "[8]", "data": [1.0] * 8}},
            "nodes": nodes}


def test_an_expression_equal_to_an_integer_is_that_integer_after_it():
    sol = solve(patch_embedding(transposed=False), timeout=30)
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("y") == "[b, 8, 8]"
    assert sol.to_json()["constraints"] == ["((h + 3)//4)*((w + 3)//4) = 8"]
    # (without the rewrite: more than 200,000 computations before the time limit)
    assert sol.computations < 2_000
    # and so it runs: 5 rows and 13 columns make 2 x 4 positions
    out = shape_logic.run(patch_embedding(False), {"x": np.ones((1, 3, 5, 13), np.float32)})
    assert out["y"].shape == (1, 8, 8)


def test_the_export_as_it_was_is_unchanged():
    sol = solve(patch_embedding(transposed=True))
    assert sol.status == "ok" and sol.shape("y") == "[b, ((h + 3)//4)*((w + 3)//4), 8]"
    assert not sol.to_json().get("constraints")


def pooled_and_upsampled() -> dict:
    """A UNet-like pool by 2 and upsampling added to its input x [b, 4, h]: 2*(h//2) = h."""
    return {"inputs": {"x": {"dtype": "f32", "shape": "[b, 4, h]"}},
            "initializers": {"scales": {"dtype": "f32", "shape": "[3]",
                                        "data": [1.0, 1.0, 2.0]}},
            "nodes": [
                {"op": "MaxPool", "inputs": ["x"], "outputs": ["p"],
                 "attrs": {"kernel_shape": [2], "strides": [2]}},
                {"op": "Resize", "inputs": ["p", "", "scales"], "outputs": ["u"],
                 "attrs": {"mode": "nearest"}},
                {"op": "Add", "inputs": ["u", "x"], "outputs": ["y"]}]}


def test_past_the_budget_arithmetic_stops_with_a_warning(monkeypatch):
    # 2*(h//2) = h, which no binding solves, is one pair; with no budget at all, the first
    # such pair stops arithmetic
    graph = pooled_and_upsampled()
    sol = solve(graph)
    assert sol.status == "ok" and sol.shape("y") == "[b, 4, h]"
    assert sol.to_json()["constraints"] == ["h%2 = 0"]  # (2*(h//2) = h)
    monkeypatch.setattr(relating, "UNSOLVED_PAIRS", 0)
    sol = solve(graph)
    assert sol.status == "ok"
    assert any("equations the rules cannot solve" in w for w in sol.warnings)


def test_two_integers_are_no_rewrite():
    # fuzz --kind control --seed 4041, graph 421 (shrunk): an If on a constant true whose
    # else-branch squeezes axis 3 of t2 = Min(x1, x0), which is 5 - the branch cannot run,
    # and is not taken. Its copy of the axis, _i2_s2, was rewritten to 5 (an unsolved
    # equation); then the Squeeze's 1 met it, both sides integers, and 5 was rewritten to 1
    # everywhere: the graph was called inconsistent, and it runs
    import json
    from pathlib import Path

    g = json.loads((Path(__file__).parent / "data" / "rewrite_branch_not_taken.json").read_text())
    sol = solve(g)
    assert sol.status == "ok"
    assert any(w.startswith("an If branch cannot run") for w in sol.warnings)
    sizes = {"s0": 2, "s1": 5, "s2": 5, "s3": 3, "s4": 2, "s5": 5}
    rng = np.random.default_rng(0)
    feeds = {name: rng.random([sizes.get(d, d) for d in decl["shape"]]).astype(np.float32)
             for name, decl in g["inputs"].items()}
    shape_logic.run(g, feeds)  # (checked against the inferred shapes)
    g["initializers"]["c3"]["data"] = False  # the else-branch then runs: a true error
    assert solve(g).status == "error"


def test_two_large_integers_are_a_conflict_not_a_constraint():
    # fuzz --kind control --seed 8103, graph 56 (shrunk): an If branch that cannot run (it
    # squeezes an axis of 4) multiplied a size of its own by 4 again and again (8, 32, ...
    # 2^31) until arithmetic stopped; 2^31, past clingo's numbers, is a string, and its
    # clash with 2 was no "two different integers": `2147483648 = 2` was printed as a
    # constraint of the graph, which runs at s0 = 1
    import json
    from pathlib import Path

    path = Path(__file__).parent / "data" / "large_integers_branch_not_taken.json"
    g = json.loads(path.read_text())
    sol = solve(g)
    assert sol.status == "ok" and sol.constraints == [] and sol.bindings == {}
    feeds = {"x0": np.ones((4, 1, 5), np.float32), "x1": np.array(True),
             "x7": np.array(True)}  # (the else-branch of n4 cannot run)
    shape_logic.run(g, feeds)  # (checked against the inferred shapes)


def test_an_inequality_spelled_two_ways_is_printed_once():
    # two paths of the arithmetic to one bound: (s + 3*s%4)//4 and s - 3*s//4 are equal at
    # every s >= 1 (symbolic/periodic.py); the requirement is one
    from shape_logic.requirements import inequalities
    from shape_logic.symbolic.parse import parse_dim

    found = [(parse_dim("32*((s + 3*s%4)//4) + b"), parse_dim("4*b*s"), "t1"),
             (parse_dim("32*s - 32*(3*s//4) + b"), parse_dim("4*b*s"), "t1"),
             (parse_dim("s + b + 5"), parse_dim("2*b*s"), "t2")]
    got = inequalities(found, lambda e: e)
    assert len(got) == 2 and got == inequalities(found[::-1], lambda e: e)  # (either order)
