"""Backward soundness fuzzing in CI (bench/fuzz.py --backward runs thousands): inputs'
declarations hidden, computed tensors annotated with their true shapes."""
import importlib.util
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
_spec = importlib.util.spec_from_file_location("fuzz", ROOT / "bench" / "fuzz.py")
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)

from fuzz_backward import Disguise, check_backward, disguise, shrink_backward  # noqa: E402


def test_random_graphs_are_inferred_backward_soundly():
    for kind, n in (("base", 30), ("ops", 15)):
        r = fuzz.fuzz(n, seed=36, program_every=10, timeout=2, kind=kind, backward=True)
        v, c = r["verdicts"], r["completeness"]
        assert v.get("unsound", 0) == 0 and v.get("crash", 0) == 0, r["failures"][:3]
        assert v.get("timeout", 0) <= 1, r["failures"]
        assert v.get("ok", 0) >= n * 3 // 4, v
        assert c["annotated"] > n and c["hidden"] > n // 2, c  # the mode hides and annotates
        assert c["recovered"] > 0, c  # and some hidden dims come back from annotations


def test_a_hidden_dim_comes_back_from_an_annotation_and_is_checked():
    b = fuzz.Builder(random.Random(0), symbolic=0.0)
    x = b.new_input([2, 3])
    (y,) = b.add("Relu", [x])
    (z,) = b.add("Transpose", [y], {"perm": [1, 0]})
    g = {**b.graph, "inputs": {x: {"dtype": "f32", "shape": ["?", "?"]}},
         "annotations": {z: {"shape": "[a0, 2*a1]"}}}
    d = Disguise(g, {"a0": 3, "a1": 1}, [(x, 0), (x, 1)])
    verdict, reason, _, _, counts = check_backward(b, random.Random(0), True, d)
    assert verdict == "ok", reason
    assert counts["recovered"] == 2  # x: [2*a1, a0]
    b.values[x] = np.zeros((4, 3), np.float32)  # pretend the input ran as [4, 3]
    verdict, reason, _, _, _ = check_backward(b, random.Random(0), False, d)
    assert verdict == "unsound" and "executed 4" in reason
    d.symbols["a1"] = 2  # a symbol's value the executed shapes contradict
    b.values[x] = np.zeros((2, 3), np.float32)
    assert check_backward(b, random.Random(0), False, d)[0] == "unsound"


def test_disguised_graphs_hold_their_annotations_and_shrink_keeps_a_failure():
    from shape_logic.solver import solve

    rng = random.Random(7)
    for _ in range(10):
        b = fuzz.build(random.Random(rng.randrange(2**63)))
        if b.failed_op:
            continue
        d = disguise(b, random.Random(rng.randrange(2**63)))
        for place in ("annotations", "outputs"):
            for t in d.graph.get(place, {}):
                assert t in b.values and t not in b.graph["inputs"]
        assert solve(d.graph, explain=False).status == "ok"
    # a failure (a wrong executed value) shrinks to what shows it
    b = fuzz.Builder(random.Random(0), symbolic=0.0)
    x = b.new_input([2, 3])
    (y,) = b.add("Relu", [x])
    (z,) = b.add("Neg", [y])
    (w,) = b.add("Sigmoid", [y])
    g = {**b.graph, "inputs": {x: {"dtype": "f32", "shape": ["?", 3]}},
         "annotations": {z: {"shape": "[2, 3]"}, w: {"shape": "[a0, 3]"}}}
    d = Disguise(g, {"a0": 2}, [(x, 0)])
    b.values[y] = np.zeros((5, 3), np.float32)
    small = shrink_backward(b, d, "unsound")
    assert [n["op"] for n in small.graph["nodes"]] == ["Relu"] or len(small.annotated) == 1
    assert check_backward(b, random.Random(0), False, small)[0] == "unsound"


def regression(name: str) -> dict:
    import json

    return json.loads((Path(__file__).parent / "fuzz_regressions" / f"{name}.json").read_text())


def test_an_annotated_length_of_a_single_value_input_is_no_violation():
    # OneHot's depth, Shape(x6)[0:1], annotated [a0]: a0 = 1, and the node is valid
    from shape_logic.solver import solve

    case = regression("onehot_depth_annotated_with_a_symbol")
    sol = solve(case["graph"])
    assert sol.status == "ok", sol.diagnostics[0].to_text()
    assert sol.bindings == {"a0": 1} and sol.shape("t9") == "[s2, 2]"
    # an input declared so: a symbolic length is no violation either, an integer one is
    for op, inputs, attrs in (("OneHot", ["i", "p", "v"], {}),
                              ("CumSum", ["x", "p"], {}),
                              ("NonMaxSuppression", ["b", "s", "p"], {})):
        g = {"inputs": {"i": {"dtype": "i64", "shape": [3]}, "x": {"dtype": "f32", "shape": [3]},
                        "b": {"dtype": "f32", "shape": [1, 4, 4]},
                        "s": {"dtype": "f32", "shape": [1, 1, 4]},
                        "p": {"dtype": "i64", "shape": ["n"]}},
             "initializers": {"v": {"dtype": "f32", "shape": [2], "data": [0.0, 1.0]}},
             "nodes": [{"name": "k", "op": op, "inputs": inputs, "outputs": ["y"],
                        "attrs": attrs}]}
        g["inputs"] = {t: d for t, d in g["inputs"].items() if t in inputs}
        assert solve(g).status == "ok", (op, solve(g).diagnostics[0].to_text())
        g["inputs"]["p"]["shape"] = [2]
        assert solve(g).status == "error", op


def test_an_unknown_annotated_length_of_resize_s_sizes_is_no_violation():
    from shape_logic.solver import solve

    case = regression("resize_sizes_annotated_unknown")
    sol = solve(case["graph"])
    assert sol.status == "ok", sol.diagnostics[0].to_text()
    assert sol.shape("t5") == "[2]" and sol.shape("t6") == "[s4, 2]"
    g = case["graph"]
    g["annotations"]["t5"] = {"shape": "[3]"}  # a wrong integer length still clashes
    assert solve(g).status == "error"


def test_the_executor_keeps_the_closing_solve_s_fresh_names_apart_from_its_own():
    from shape_logic.executor import Program

    case = regression("program_fresh_names_of_the_closing_solve")
    feeds = {t: np.ones(s, np.float32) for t, s in case["inputs"].items()}
    out = Program(case["graph"]).run(feeds, warmup=0, repeat=1)
    assert out["y"].shape == (1, 6, 1, 11)
