"""Narrowing fuzzing in CI (bench/fuzz.py --narrowing runs thousands): random graphs as ONNX
models whose outputs are declared the ways exporters do (shape_logic/narrowing.py)."""
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fuzz  # noqa: E402
import fuzz_declare  # noqa: E402
import fuzz_narrowing  # noqa: E402


def test_random_models_declared_as_exporters_do_are_narrowed_soundly():
    for kind, n in (("base", 30), ("ops", 15)):
        r = fuzz.fuzz(n, seed=40, timeout=4, kind=kind, narrowing=True)
        v, c = r["verdicts"], r["completeness"]
        failed = {k: v[k] for k in fuzz_narrowing.FAILURES if v.get(k)}
        assert not failed, (failed, r["failures"][:3])
        assert v.get("ok", 0) + v.get("caught", 0) >= n * 3 // 4, v
        # the declarations are both kept and set aside
        assert c.get("true kept", 0) > 0 and c.get("true set aside", 0) == 0, c
        assert sum(c.get(f"{w} set aside", 0) for w in fuzz_narrowing.WAYS) >= n // 3, c


def _cases(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        b = fuzz.build(random.Random(rng.randrange(2**63)))
        yield b, random.Random(rng.randrange(2**63))


def test_the_checks_find_a_narrowing_that_keeps_what_requires_of_the_inputs(monkeypatch):
    # a narrowing that took no requirement for one (traced sizes kept): the fuzzer says so
    from shape_logic import narrowing

    monkeypatch.setattr(narrowing, "input_requirements", lambda graph, decoded, kinds=None: [])
    monkeypatch.setattr(narrowing, "new_requirements", lambda graph, decoded, alone: [])
    verdicts = {fuzz_narrowing.fuzz_one(b, rng, {})[0] for b, rng in _cases(40, 3)}
    assert verdicts & {"unsound", "inconsistent", "dropped"}, verdicts


def test_the_checks_find_an_obvious_verdict_a_solve_would_not_give(monkeypatch):
    from shape_logic import narrowing

    walk = narrowing.Obvious._walk

    def rash(self, name):  # a declaration that names what the graph gives: "contradiction"
        outcome, named = walk(self, name)
        return ("contradiction", {}) if outcome == "kept" else (outcome, named)

    monkeypatch.setattr(narrowing.Obvious, "_walk", rash)
    verdicts = [fuzz_narrowing.fuzz_one(b, rng, {})[0] for b, rng in _cases(40, 3)]
    assert "obvious" in verdicts, verdicts


def test_a_model_declared_with_the_graph_s_own_shapes_keeps_them():
    from shape_logic.solver import solve

    for b, rng in _cases(10, 5):
        sol = solve(b.graph, explain=False)
        if sol.status != "ok":
            continue
        d = fuzz_declare.declare(b, sol, rng)
        d.outputs = {t: fuzz_declare.declared_dims("true", t, b, sol, rng)[0]
                     for t in d.outputs}
        got = solve(d.model(b.values), explain=False)
        assert got.status == "ok" and got.set_aside == {}
        assert not [w for w in got.warnings if w.startswith("graph output")]
        for t in b.values:
            assert (got.dims(t) is None) == (sol.dims(t) is None), t
