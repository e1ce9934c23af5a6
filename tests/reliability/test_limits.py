"""Limits: a time budget that stops with the phase and the largest contributors (exit 3),
and arithmetic that gives up - reported - instead of computing forever."""
import json
import time
from pathlib import Path

import pytest

from shape_logic.cli import main
from shape_logic.limits import TimeLimit, budget
from shape_logic.solver import solve

MLP = "examples/mlp.json"
# A user rule file whose grounding never ends by itself: every step makes a new number
# (it stops only at the arithmetic's budget of distinct values, a minute later).
ENDLESS_RELU = ('same_shape(X, Y) :- op(N, "Relu"), input(N, 0, X), output(N, 0, Y).\n'
                'relu_n(0) :- op(N, "Relu").\n'
                'relu_n(@add(X, 1)) :- relu_n(X).\n')


@pytest.fixture
def endless_rules(tmp_path):
    (tmp_path / "Relu.lp").write_text(ENDLESS_RELU)
    return str(tmp_path)


def test_grounding_past_the_budget_stops_naming_phase_and_contributors(endless_rules):
    with pytest.raises(TimeLimit) as info:
        solve(MLP, rules=[endless_rules], timeout=1.0)
    e = info.value
    assert e.phase == "grounding"
    assert any(c.startswith("relu_n/1 ") and "(Relu.lp)" in c for c in e.contributors), \
        e.contributors
    assert "time limit of 1 s reached while grounding; largest: " in str(e)


def test_cli_timeout_exits_3_with_one_line(endless_rules, capsys):
    code = main(["solve", MLP, "--rules", endless_rules, "--timeout", "1"])
    err = capsys.readouterr().err
    assert code == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "time limit of 1 s reached while" in lines[0], err
    assert MLP in lines[0]
    code = main(["check", MLP, "--rules", endless_rules, "--timeout", "1"])
    assert code == 3 and "time limit" in capsys.readouterr().err


def test_a_solve_within_the_budget_is_unchanged():
    assert solve(MLP, timeout=60).shape("probs") == "[batch, 10]"
    assert main(["solve", MLP, "--timeout", "60"]) == 0


def test_budgets_nest_to_the_tighter_one():
    with budget(100) as outer:
        with budget(1000) as inner:
            assert inner is outer
        with budget(0.5) as inner:
            assert inner.seconds == 0.5
        with budget(None) as inner:
            assert inner is outer


def _growing_product(k: int) -> dict:
    """x0..x{k-1}: [s_i]; each step multiplies the running length by the next symbol
    (Unsqueeze, broadcasting Mul, Reshape to [-1]): the degree grows past the cap (12)."""
    g = {"inputs": {f"x{i}": {"dtype": "f32", "shape": f"[s{i}]"} for i in range(k)},
         "initializers": {"flat": {"dtype": "i64", "data": [-1]},
                          "ax": {"dtype": "i64", "data": [1]}},
         "nodes": []}
    t = "x0"
    for i in range(1, k):
        g["nodes"] += [
            {"name": f"u{i}", "op": "Unsqueeze", "inputs": [t, "ax"], "outputs": [f"u{i}"]},
            {"name": f"m{i}", "op": "Mul", "inputs": [f"u{i}", f"x{i}"], "outputs": [f"m{i}"]},
            {"name": f"r{i}", "op": "Reshape", "inputs": [f"m{i}", "flat"], "outputs": [f"t{i}"]}]
        t = f"t{i}"
    return g


def test_expression_blow_up_is_reported_not_computed():
    sol = solve(_growing_product(16), timeout=60)
    assert sol.status == "ok"
    assert sol.shape("t11") == "[s0*s1*s10*s11*s2*s3*s4*s5*s6*s7*s8*s9]"  # degree 12: kept
    assert sol.shape("t12").startswith("[_")  # degree 13: not computed, a fresh name
    assert any("arithmetic gave up" in w and "degree 13" in w for w in sol.warnings)


def test_computed_dims_beyond_2_62_are_reported():
    g = {"inputs": {"x": {"dtype": "f32", "shape": [2**32, 2**31]}},
         "initializers": {"flat": {"dtype": "i64", "data": [-1]}},
         "nodes": [{"name": "r", "op": "Reshape", "inputs": ["x", "flat"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.shape("y") == f"[{2**63}]"
    assert sol.warnings == [f"y: axis 0 is {2**63}, beyond 2^62 (no runtime can hold it)"]
    g["inputs"]["x"]["shape"] = [2**40, 2**40]  # past the integer cap (2^64): not computed
    sol = solve(g)
    assert sol.shape("y") == "[_1]" and "exceeds 2^64" in sol.warnings[0]


SLOW = sorted((Path(__file__).parent / "fuzz_regressions").glob("slow_*.json"))


@pytest.mark.parametrize("path", SLOW, ids=[p.stem for p in SLOW])
def test_graphs_the_equation_solver_was_slow_on_now_solve(path):
    """Found by bench/fuzz.py: small graphs whose grounding ran for minutes (equations
    multiplying, eqn/2 past 20,000 atoms). The fast mode's use of known bindings, on the
    arguments of arithmetic and on its results (a body's spelling `_i1_s0` of `s0` is `s0`
    again once bound: nested Scan and Loop bodies mixed the spellings without end), and
    the alternatives' bounded allowance (alternatives.py) ended that: they must solve, and
    promptly."""
    g = json.loads(path.read_text())
    t0 = time.monotonic()
    sol = solve(g, timeout=20)
    assert sol.status == "ok" and not sol.warnings
    assert time.monotonic() - t0 < 10


def test_ranks_raised_round_a_cycle_stop_once_the_graph_is_inconsistent():
    """Found by bench/fuzz.py (seed 12, graph 731): a Loop whose body surely runs squeezes
    an axis the graph sizes s1, and a Scan stacks a Concat of s0 and s1 that a Reshape in
    the body needs 18 elements of. Once tensors there had two ranks, a Scan's stacked
    output fed its state back through a broadcast, and clingo's R + 1 raised the ranks
    without end (past 50 after 3 s, with every axis of each) until the time limit. Ranks
    raised from others go through @rank_up, which stops at the first conflict: the graph
    is reported inconsistent in about a second, its ranks no higher than its own."""
    from shape_logic.solver import Problem

    path = Path(__file__).parent / "fuzz_regressions" / "rank_flood_scan_loop.json"
    g = json.loads(path.read_text())
    atoms, funcs = Problem.load(g).atoms()
    assert atoms.conflicts and funcs.refused > 0
    assert max(r for ranks in atoms.rank.values() for r in ranks) <= 3
    t0 = time.monotonic()
    sol = solve(g, timeout=60)
    assert sol.status == "error" and sol.diagnostics
    assert time.monotonic() - t0 < 20


def test_an_error_whose_explanation_runs_away_is_still_reported():
    """An exported GPT-2 block with one Concat's axis out of range: explaining it with the
    whole graph (sources as assumptions, no known bindings) computes without end, so past
    its allowance (ten times the whole solve's computations) it gives up - instead of the
    solve hitting its time limit (it took over a minute before) - and the error is
    explained in a neighbourhood of the Concat (diagnose._diagnose; it was given without
    its core)."""
    pytest.importorskip("torch")
    import sys
    import warnings

    from onnx import helper

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from torch_models import gpt

    from shape_logic.diagnosis import UNEXPLAINED

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, _ = gpt()
    concat = next(n for n in model.graph.node if n.op_type == "Concat")
    del concat.attribute[:]
    concat.attribute.append(helper.make_attribute("axis", 7))
    sol = solve(model, timeout=120)
    assert sol.status == "error"
    (d,) = sol.diagnostics
    assert d.message == f'Concat "{concat.name}": axis = 7 is out of range for rank 1'
    assert UNEXPLAINED not in d.notes
    assert {"kind": "node", "name": concat.name, "source": f'node "{concat.name}"'} in d.core


def test_ranks_raised_in_a_branch_that_cannot_run_stop_at_the_cap():
    """Found by bench/fuzz.py's run at other sizes (seed 21, graph 456): an If branch that
    cannot run (its Scan reads axis -3 of a vector) raised ranks without end through
    @rank_up, as no conflict inside a body halts anything, and the time limit never
    fired: clingo's grounding called no function that checks it. Ranks now stop at
    MAX_RANK (32) and @rank_up checks the deadline: the graph solves, its taken branch's
    output known."""
    path = Path(__file__).parent / "fuzz_regressions" / "rank_flood_untaken_branch.json"
    t0 = time.monotonic()
    sol = solve(json.loads(path.read_text()), timeout=30)
    assert sol.status == "ok" and sol.shape("t7") == "[4, 1, 1, 1]"
    assert any("If branch cannot run" in w for w in sol.warnings)
    assert time.monotonic() - t0 < 10


def test_an_inconsistent_graph_stops_growing_its_sizes():
    """Found by bench/fuzz.py (control, seed 107, graph 63): once values collide, counts and
    pairings of elements stop with the rest of arithmetic; computing element counts past
    the collision grew the sizes without end (a 60 s limit was overrun to 451 s)."""
    case = json.loads((Path(__file__).parent / "fuzz_regressions" /
                       "error_whose_sizes_grew.json").read_text())
    t0 = time.monotonic()
    sol = solve(case["graph"], timeout=30)
    assert sol.status == "error"
    assert time.monotonic() - t0 < 15


def test_where_pairs_the_elements_of_short_vectors_only():
    """Where's element rules (shape computations) pair the elements of vectors of up to
    1024 elements, the most any tensor's elements are known of: over a [200000] vector
    they made 600,000 atoms (1.5 s for one node) and computed nothing."""
    from shape_logic.solver import Problem

    def where_at_atoms(n: int) -> int:
        g = {"inputs": {"c": {"dtype": "bool", "shape": f"[{n}]"},
                        "x": {"dtype": "i64", "shape": f"[{n}]"},
                        "y": {"dtype": "i64", "shape": f"[{n}]"}},
             "nodes": [{"op": "Where", "inputs": ["c", "x", "y"], "outputs": ["z"]}]}
        ctl, _ = Problem.load(g).control("", sourced=False)
        return sum(1 for _ in ctl.symbolic_atoms.by_signature("where_at", 4))

    assert where_at_atoms(3) == 9 and where_at_atoms(2000) == 0


# fuzz --kind ops --seed 511, graph 358: a Col2Im whose block size is Shape(x1)[1:2] - 1
COL2IM_COMPUTED_BLOCK = {
    "opset": 18,
    "inputs": {"x0": {"dtype": "f32", "shape": [4]},
               "x1": {"dtype": "f32", "shape": ["s0", "s1", "s2"]},
               "x2": {"dtype": "f32", "shape": [1]}, "x3": {"dtype": "f32", "shape": [1]},
               "x5": {"dtype": "f32", "shape": [2, 1, 3]}},
    "initializers": {"c6": {"dtype": "i64", "shape": [1], "data": [6]},
                     "c8": {"dtype": "i64", "shape": [1], "data": [-1]}},
    "nodes": [
        {"name": "n0", "op": "GroupNormalization", "inputs": ["x1", "x2", "x3"],
         "outputs": ["t4"], "attrs": {"num_groups": 1}},
        {"name": "n1", "op": "Shape", "inputs": ["x1"], "outputs": ["t7"],
         "attrs": {"start": 1, "end": 2}},
        {"name": "n2", "op": "Add", "inputs": ["t7", "c8"], "outputs": ["t9"]},
        {"name": "n3", "op": "Col2Im", "inputs": ["x5", "c6", "t9"], "outputs": ["t10"]}]}


def test_an_explanation_that_ran_away_is_explained():
    """Found by bench/fuzz.py (ops, seed 511, graph 358): the Col2Im's 3 block positions
    bind s1 = 5, so its block is both s1 - 1 and 4, and explaining (no binding substituted)
    divided and multiplied x5's channels by either without end, nesting `x//4` in
    `//(s1 - 1)`; bounding one such expression refined on every nested floor division
    (2^depth expressions) and the explaining solve ran past 100 s. Bounds now refine
    within a budget (symbolic/bounds.py, MAX_REFINEMENTS: test_product_bounds.py), and
    Col2Im works X's channels back from Y's only by a block of integer size, which ends
    the runaway itself: the error is explained, with its minimal core."""
    from shape_logic.diagnosis import UNEXPLAINED

    plain = solve(COL2IM_COMPUTED_BLOCK, explain=False)
    sol = solve(COL2IM_COMPUTED_BLOCK, timeout=120)
    assert plain.status == sol.status == "error"
    assert [d.message for d in sol.diagnostics] == \
        ['Col2Im "n3": the block\'s 4 elements do not divide the input\'s 1 channels']
    d = sol.diagnostics[0]
    assert UNEXPLAINED not in d.notes and "with s1 = 5" in d.notes
    assert {(c["kind"], c["name"]) for c in d.to_json()["core"]} >= \
        {("node", "n3"), ("input", "x5"), ("input", "x1")}
