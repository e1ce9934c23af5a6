"""Shape-error completeness fuzzing in CI (bench/fuzz_wrong.py runs thousands): random
graphs with one computed tensor annotated one axis off must be errors, explained by a core
that names the annotation."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fuzz_wrong  # noqa: E402


def test_a_tensor_annotated_one_axis_off_is_an_error_named_by_its_core():
    for kind, n in (("base", 24), ("ops", 12)):
        r = fuzz_wrong.fuzz(n, seed=57, kind=kind, out=None, timeout=4, explain_every=2)
        v = r["verdicts"]
        failed = {k: v[k] for k in fuzz_wrong.FINDINGS if v.get(k)}
        assert not failed, (failed, r["failures"][:3])
        assert v.get("ok", 0) >= n * 3 // 4, v


def test_the_checks_find_an_error_the_solver_misses(monkeypatch):
    # relate blind to conflicts of expressions (an integer difference left unsolved): the
    # annotations `E + c` meet E unseen, and the fuzzer says so
    from shape_logic.asp import relating
    from shape_logic.symbolic.equation import UNSOLVED, relate

    def blind(x, y, order=None):
        r = relate(x, y, order) if order else relate(x, y)
        return UNSOLVED if r.kind == "conflict" and not (x.is_int and y.is_int) else r

    monkeypatch.setattr(relating, "relate", blind)
    r = fuzz_wrong.fuzz(30, seed=57, kind="base", out=None, timeout=4, explain_every=0)
    assert r["verdicts"].get("missed", 0) > 0, r["verdicts"]


def test_explaining_relates_no_value_nested_past_its_depth(monkeypatch):
    # fuzz_wrong --kind ops --seed 5714, graph 366: explaining fed values back into
    # themselves one floor deeper each round, 923 equations of them in 24 s
    import json

    from shape_logic import solve
    from shape_logic.asp import budgets, relating

    case = json.loads((Path(__file__).parent / "fuzz_regressions" /
                       "explaining_values_nested_ever_deeper.json").read_text())
    deepest = []
    relate = relating.relate

    def watched(x, y, *order):
        deepest.append(max(budgets.depth(x), budgets.depth(y)))
        return relate(x, y, *order)

    monkeypatch.setattr(relating, "relate", watched)
    sol = solve(case["graph"])
    (d,) = sol.diagnostics
    assert {c["source"] for c in d.core} == {"inputs.x0", "annotations.t1", 'node "n0"'}
    assert max(deepest) <= budgets.EXPLAIN_DEPTH, max(deepest)
