"""Annotated outputs of a Reshape -> Concat chain (as exporters write them: a symbol per
output dim) once made grounding run without end: each combination of a symbol's values
in an element count gave a new binding (z = 4*w, z = 2*w*w ...). Fast mode now computes
with the bindings known so far."""
import time

from shape_logic import solve

GRAPH = {
    "inputs": {"a": {"shape": "[b, p, 2, 8]"}, "x": {"shape": "[b, s, 16]"}},
    "outputs": {"y": {"shape": "[u, v, w, z]"}},
    "initializers": {"t": {"dtype": "i64", "data": [0, 0, 2, 8]}},
    "nodes": [{"name": "r", "op": "Reshape", "inputs": ["x", "t"], "outputs": ["x2"]},
              {"name": "c", "op": "Concat", "inputs": ["a", "x2"], "outputs": ["y"],
               "attrs": {"axis": 1}}],
}


def test_output_symbols_are_bound_without_blowup():
    t0 = time.perf_counter()
    sol = solve(GRAPH)
    assert time.perf_counter() - t0 < 20
    assert sol.status == "ok"
    assert sol.shape("y") == "[b, p + s, 2, 8]"
    assert sol.bindings == {"u": "b", "v": "p + s", "w": 2, "z": 8}


def test_unnamed_output_dims_too():
    g = {**GRAPH, "outputs": {"y": {"shape": "[?, ?, ?, ?]"}}}
    assert solve(g).shape("y") == "[b, p + s, 2, 8]"


def test_an_inconsistent_symbol_still_shows_a_conflict():
    g = {**GRAPH, "outputs": {"y": {"shape": "[u, v, 3, z]"}}}
    assert solve(g).status == "error"


def test_arithmetic_sees_bindings_found_after_an_earlier_call():
    """Fast mode remembers each expression with the known bindings substituted; a binding
    found later must show in the next computation on the same expression."""
    from clingo import Number, String

    from shape_logic.asp.functions import Functions
    from shape_logic.symbolic.equation import default_order

    f = Functions(default_order, normalize=True)
    assert f.add(String("n + m"), Number(1)) == String("m + n + 1")
    assert f.relate(String("n"), Number(3)).name == "bind"
    assert f.sub(String("n + m"), Number(1)) == String("m + 2")
    assert f.relate(String("m"), Number(4)).name == "bind"
    assert f.mul(String("n + m"), Number(2)) == Number(14)


def test_broadcasts_take_the_known_bindings():
    """A Scan and a Loop whose bodies surely run spell the graph's symbols as their own
    copies (_i1_s0, bound to s0): @bcast, which did not substitute the known bindings as
    arithmetic does, made a max of every combination of spellings along the chain - up to
    128 values at one axis and 10,591 computations on this fuzz graph (5.8 s; the whole
    graph hit the fuzzer's time limit). Now 8 values at most, 256 computations."""
    assert_few_spellings("slow_scan_loop_broadcast")


def assert_few_spellings(regression: str) -> None:
    """A fuzz regression's graph solves in few computations and few values per axis."""
    import json
    from pathlib import Path

    from shape_logic.solver import Problem

    path = Path(__file__).parents[1] / "reliability" / "fuzz_regressions" / f"{regression}.json"
    atoms, funcs = Problem.load(json.loads(path.read_text())).atoms()
    assert funcs.calls < 1000
    assert max(len(values) for values in atoms.dims.values()) <= 16
    assert not atoms.conflicts


def test_rewrites_take_the_known_bindings():
    """A symbol met by several equations before any was solved gets several bindings
    (`_i2_s2 = s2`, `_i2_s2 = s0 - _i2_s1 + s2`...), and equations.lp rewrites a value
    with each: @subst, which did not substitute the known bindings as arithmetic does,
    gave a spelling per binding, and three nested Scans summed and broadcast every
    combination - 344 values at one axis, 60k equations, the fuzzer's time limit (fuzz
    --kind all --seed 128, graph 352: 13 s). Now 9 values at most, ~250 computations."""
    from clingo import String

    from shape_logic.asp.functions import Functions
    from shape_logic.symbolic.equation import default_order

    f = Functions(default_order, normalize=True)
    assert f.relate(String("n"), String("m")).name == "bind"  # n = m, known
    assert f.subst(String("k + n"), String("k"), String("n + 1")) == String("2*m + 1")
    assert_few_spellings("slow_scan_concat_rewrites")
