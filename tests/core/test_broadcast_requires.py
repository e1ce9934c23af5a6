"""What a broadcast against an integer requires of a symbolic dim (encodings/broadcast.lp,
one_or/2; the solution's `one_of`): [s] + [3] runs only where s is 1 or 3. Checked against
numpy at every s in 1..40: every s the solve's requirements reject (one_of, bindings,
ranges, floors, constraints, a shape error) fails in numpy, and every s they allow runs."""
import json

import numpy as np
import pytest

from shape_logic import solve
from shape_logic.cli import main
from shape_logic.shapes import parse_shape
from shape_logic.symbolic.expr import Expr
from shape_logic.symbolic.parse import parse_dim

SIZES = range(1, 41)


def _at(text: str, s: int) -> int:
    """An expression of the shape language (in s alone) at s."""
    e = parse_dim(text).subs({"s": Expr.const(s)})
    assert e.is_int, text
    return e.value


def _dims(shape: str, s: int) -> tuple:
    return tuple(d.subs({"s": Expr.const(s)}).value for d in parse_shape(shape).dims)


def _graph(op: str, a: str, b: str) -> dict:
    """x : a and y : b into `op` (Expand: b is the target's values)."""
    g = {"inputs": {"x": {"dtype": "f32", "shape": a}}, "initializers": {},
         "nodes": [{"name": "n", "op": op, "inputs": ["x", "y"], "outputs": ["z"]}]}
    if op == "Expand":
        target = [int(d) for d in b.strip("[]").split(", ")]
        g["initializers"]["y"] = {"dtype": "i64", "shape": [len(target)], "data": target}
    else:
        g["inputs"]["y"] = {"dtype": "f32", "shape": b}
    return g


def _numpy_runs(op: str, a: tuple, b: tuple) -> bool:
    try:
        x = np.zeros(a, np.float32)
        if op == "Expand":  # (ONNX's Expand is a broadcast with the target)
            np.broadcast_to(x, np.broadcast_shapes(a, b))
        elif op == "MatMul":
            np.matmul(x, np.zeros(b, np.float32))
        else:
            np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def _allowed(sol, s: int) -> bool:
    """s meets everything the solve says the graph requires (of its one symbol s)."""
    if sol.status != "ok":
        return False
    if "s" in sol.bindings and sol.bindings["s"] != s:
        return False
    lo, hi = sol.ranges.get("s", (1, s))
    if not lo <= s <= hi or s < sol.floors.get("s", 1):
        return False
    if any(_at(e, s) not in {_at(v, s) if isinstance(v, str) else v for v in values}
           for e, values in sol.one_of.items()):
        return False
    return all(_at(c.split(" = ")[0], s) == _at(c.split(" = ")[1], s)
               for c in sol.constraints)


CASES = [
    ("Add", "[s]", "[3]", {"s": [1, 3]}),
    ("Add", "[3]", "[s]", {"s": [1, 3]}),
    ("Add", "[s]", "[2]", {"s": [1, 2]}),
    ("Add", "[s]", "[17]", {"s": [1, 17]}),
    ("Add", "[2*s]", "[4]", {}),  # (2*s is no 1: an equation, s = 2)
    ("Add", "[2*s]", "[3]", {}),  # (no run: an error)
    ("Add", "[s + 1]", "[5]", {}),
    ("Add", "[s, 4]", "[3, 1, 4]", {}),
    ("Add", "[s, 4]", "[3, 4]", {"s": [1, 3]}),
    ("Add", "[2, s, 1]", "[5, 6]", {"s": [1, 5]}),
    ("Add", "[s - 1]", "[3]", {"s - 1": [1, 3]}),
    ("Add", "[s//2]", "[3]", {"s//2": [1, 3]}),
    ("Add", "[min(s, 3)]", "[3]", {"min(3, s)": [1, 3]}),
    ("Add", "[s*s]", "[4]", {"s*s": [1, 4]}),
    ("Add", "[(s//4)*(s//4) + 1]", "[5]", {"(s//4)*(s//4) + 1": [1, 5]}),
    ("Add", "[s%3]", "[2]", {"s%3": [1, 2]}),  # (s%3 is 0 at s = 3: no run)
    ("Add", "[s%2]", "[3]", {}),  # (s%2 < 3 is 1 where it runs: a constraint, bc_one)
    ("Add", "[s]", "[1]", {}),
    ("Add", "[s]", "[0]", {}),  # (0 is no 1 and unlike s: s = 1)
    ("Mul", "[s, 1]", "[7, 1]", {"s": [1, 7]}),
    ("Expand", "[s]", "[6]", {"s": [1, 6]}),
    ("Expand", "[s, 1]", "[2, 6]", {"s": [1, 2]}),
    ("MatMul", "[s, 2, 3]", "[4, 3, 5]", {"s": [1, 4]}),
    # against a value that cannot be 1 (PaddleOCR's detector: a level upsampled by 2, even,
    # added to the one above it)
    ("Add", "[(s + 15)//16]", "[2*((s + 31)//32)]",
     {"(s + 15)//16": [1, "2*((s + 31)//32)"]}),
    ("Add", "[2*((s + 31)//32)]", "[(s + 15)//16]",
     {"(s + 15)//16": [1, "2*((s + 31)//32)"]}),
    ("Add", "[s//3]", "[2*(s//6) + 2]", {}),  # (a range says it: s in 3..5)
    ("Add", "[s%4]", "[s + 1]", {"s%4": [1, "s + 1"]}),
]


@pytest.mark.parametrize("op, a, b, one_of", CASES, ids=lambda c: str(c))
def test_the_requirement_is_numpy_broadcasting(op, a, b, one_of):
    sol = solve(_graph(op, a, b))
    assert sol.one_of == one_of
    shapes = [(s, _dims(a, s), _dims(b, s)) for s in SIZES]
    for s, da, db in shapes:
        if min(da + db) < 0:
            continue  # (no tensor has such a shape)
        assert _allowed(sol, s) == _numpy_runs(op, da, db), (s, sol.to_json())


def test_two_integers_leave_one():
    # [s] against 3 and against 4: s is 1 (both are necessary), a binding like any other
    # (the answer said `s in {1}` and printed x as [s])
    g = _graph("Add", "[s]", "[3]")
    g["inputs"]["w"] = {"dtype": "f32", "shape": "[4]"}
    g["nodes"].append({"name": "m", "op": "Mul", "inputs": ["x", "w"], "outputs": ["v"]})
    g["nodes"].append({"name": "k", "op": "Sub", "inputs": ["w", "x"], "outputs": ["u"]})
    sol = solve(g)
    assert sol.bindings == {"s": 1} and sol.one_of == {}
    assert sol.shape("x") == "[1]" and sol.shape("z") == "[3]" and sol.shape("v") == "[4]"


def test_the_vit_position_table():
    g = _graph("Add", "[b, (h//16)*(w//16) + 1, 768]", "[1, 197, 768]")
    sol = solve(g)
    assert sol.shape("z") == "[b, 197, 768]"
    assert sol.one_of == {"(h//16)*(w//16) + 1": [1, 197]}
    assert sol.bindings == {} and not sol.constraints


def test_a_bound_symbol_requires_nothing_more():
    # s + 1 = 4 binds s = 3, and [3] + [3] runs
    g = _graph("Add", "[s]", "[3]")
    g["inputs"]["w"] = {"dtype": "f32", "shape": "[s + 1]"}
    g["initializers"]["four"] = {"dtype": "f32", "shape": [4], "data": [0.0] * 4}
    g["nodes"].append({"name": "m", "op": "Add", "inputs": ["w", "four"], "outputs": ["v"]})
    sol = solve(g)
    assert sol.bindings == {"s": 3} and sol.one_of == {}
    assert "one_of" not in sol.to_json() and "requires" not in sol.to_text()


def test_a_range_that_implies_it_drops_it():
    # x's axis is 1 as annotated, so s in 2..3, where s//2 is 1: nothing more
    g = _graph("Add", "[s//2]", "[3]")
    g["annotations"] = {"x": {"shape": "[1]"}}
    sol = solve(g)
    assert sol.ranges == {"s": [2, 3]} and sol.one_of == {}


def test_an_axis_holding_the_integer_too_requires_no_more():
    # s*t = 3 is a constraint already: the axis holds 3 beside s*t
    g = _graph("Add", "[s*t]", "[3]")
    assert solve(g).one_of == {"s*t": [1, 3]}
    g["annotations"] = {"x": {"shape": "[3]"}}
    sol = solve(g)
    assert sol.constraints == ["s*t = 3"] and sol.one_of == {}


def test_fresh_names_are_renamed_as_in_shapes():
    sol = solve(_graph("Add", "[?, 5]", "[4, 1]"))
    assert sol.shape("x") == "[_1, 5]" and sol.one_of == {"_1": [1, 4]}


def test_nothing_of_a_branch_that_may_not_run():
    w3 = {"dtype": "f32", "shape": [3], "data": [1.0, 2.0, 3.0]}
    g = {"opset": 13, "inputs": {"x": {"dtype": "f32", "shape": "[s]"},
                                 "c": {"dtype": "bool", "shape": "[]"}},
         "initializers": {"w": w3},
         "nodes": [{"name": "if", "op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
             "then_branch": {"inputs": [], "outputs": ["t"], "nodes": [
                 {"name": "add", "op": "Add", "inputs": ["x", "w"], "outputs": ["t"]}]},
             "else_branch": {"inputs": [], "outputs": ["e"], "nodes": [
                 {"name": "neg", "op": "Neg", "inputs": ["x"], "outputs": ["e"]}]}}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.one_of == {}


def test_the_json_key_and_the_text_line(tmp_path, capsys):
    path = tmp_path / "add.json"
    path.write_text(json.dumps(_graph("Add", "[b, s]", "[1, 3]")))
    assert main(["solve", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["one_of"] == {"s": [1, 3]} and out["tensors"]["z"]["shape"] == "[b, 3]"
    assert main(["solve", str(path)]) == 0
    assert "requires: s in {1, 3}" in capsys.readouterr().out.splitlines()


FORMS = ["s", "s - 1", "s - 2", "2*s - 1", "3*s", "s//2", "s//3 + 1", "(s + 1)//2", "s%4",
         "min(s, 5)", "max(s, 3) - 2", "s*s - 3", "(s//2)*(s//3)"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("n", [2, 3, 5])
def test_every_form_against_every_integer(form, n):
    # whatever the solve says of [form] + [n] (a requirement, a binding, a constraint,
    # an error), it allows exactly the s where numpy runs
    sol = solve(_graph("Add", f"[{form}]", f"[{n}]"))
    for s in SIZES:
        e = _at(form, s)
        if e >= 0:
            assert _allowed(sol, s) == (e in (1, n)), (s, sol.to_json())


def test_a_run_outside_the_requirement_says_so():
    from shape_logic.executor import ExecutionError, run

    g = _graph("Add", "[b, s]", "[1, 3]")
    y = np.ones((1, 3), np.float32)
    with pytest.raises(ExecutionError, match=r"the graph requires s in \{1, 3\}\)"):
        run(g, {"x": np.ones((2, 2), np.float32), "y": y})
    assert run(g, {"x": np.ones((2, 1), np.float32), "y": y})["z"].shape == (2, 3)


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_a_floor_settles_a_broadcasts_requirement(n):
    # x [1, 1, s] convolved by a kernel of 5 (s >= 5) and added to a [n]: s is 1 or n, and
    # under the floor not 1. The floor's second solve did not run (every axis had a value):
    # the requirement was printed beside the floor, `s in {1, 3}` with `s >= 5` for a graph
    # with no run at all. Now n >= 5 binds s = n, n < 5 is an error
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, s]"},
                    "w": {"dtype": "f32", "shape": [1, 1, 5]},
                    "y": {"dtype": "f32", "shape": [n]}},
         "nodes": [{"name": "c", "op": "Conv", "inputs": ["x", "w"], "outputs": ["h"]},
                   {"name": "a", "op": "Add", "inputs": ["x", "y"], "outputs": ["z"]}]}
    sol = solve(g)
    runs = [s for s in SIZES if s >= 5 and s in (1, n)]  # numpy: the Conv, the broadcast
    if runs:
        assert sol.status == "ok" and sol.bindings == {"s": n} and not sol.one_of
        assert sol.shape("h") == f"[1, 1, {n - 4}]" and runs == [n]
    else:
        assert sol.status == "error"
        assert any("no run at all" in note for note in sol.diagnostics[0].notes)


def test_a_floor_that_settles_no_requirement_is_not_solved_again(monkeypatch):
    # x [1, 1, s] pooled by windows of 8 (s >= 8) and added to an [8]: s//8 is 1 or 8,
    # and s >= 8 leaves both (s//8 may still be 1). The floor's round solved the whole
    # graph again for that (SAM's vision encoder: 0.15 s of 0.46); the answer is the same
    import shape_logic.floor_rounds as rounds
    from shape_logic.solver import Problem

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, s]"},
                    "y": {"dtype": "f32", "shape": [8]}},
         "nodes": [{"name": "p", "op": "MaxPool", "inputs": ["x"], "outputs": ["h"],
                    "attrs": {"kernel_shape": [8], "strides": [8]}},
                   {"name": "a", "op": "Add", "inputs": ["h", "y"], "outputs": ["z"]}]}
    solves = []
    fast_answer = Problem.fast_answer
    monkeypatch.setattr(Problem, "fast_answer",
                        lambda self, *a, **k: solves.append(1) or fast_answer(self, *a, **k))
    sol = solve(g)
    assert len(solves) == 1
    assert sol.floors == {"s": 8} and sol.one_of == {"s//8": [1, 8]}
    for s in range(1, 80):  # (what it allows is where numpy runs: the pooling, the broadcast)
        assert _allowed(sol, s) == (s >= 8 and s // 8 in (1, 8)), s
    monkeypatch.setattr(rounds, "_settles_one_of", lambda *a: True)  # (the round as it was)
    solves.clear()
    again = solve(g)
    assert len(solves) == 2 and again.to_json() == sol.to_json()
