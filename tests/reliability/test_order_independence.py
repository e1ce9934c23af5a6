"""Order independence: permuting nodes, renaming tensors (and nodes), and re-ordering
attributes, inputs and initializers gives the same result up to renaming - the rules
are a declarative program, so nothing may depend on the order the graph is written in."""
import importlib.util
import json
import random
import re
from pathlib import Path

import pytest

from shape_logic.solver import solve

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("fuzz", ROOT / "bench" / "fuzz.py")
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)

EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.json"))


def scrambled(g: dict, rng: random.Random) -> tuple[dict, dict]:
    """(the graph rewritten, old tensor name -> new name)."""
    tensors = set(g.get("inputs", {})) | set(g.get("initializers", {})) | \
        set(g.get("outputs", {})) | set(g.get("annotations", {}))
    for n in g["nodes"]:
        tensors |= {t for t in n["inputs"] + n["outputs"] if t}
    names = sorted(tensors)
    fresh = [f"v{k}" for k in range(len(names))]
    rng.shuffle(fresh)
    rename = dict(zip(names, fresh))

    def section(d):
        items = [(rename[k], v) for k, v in d.items()]
        rng.shuffle(items)
        return dict(items)

    out = json.loads(json.dumps(g))
    for key in ("inputs", "initializers", "outputs", "annotations"):
        if key in out:
            out[key] = section(out[key])
    nodes = []
    for k, n in enumerate(out["nodes"]):
        n = dict(n, name=f"node_{rng.randrange(10**6)}_{k}",
                 inputs=[rename[t] if t else t for t in n["inputs"]],
                 outputs=[rename[t] if t else t for t in n["outputs"]])
        if "attrs" in n:
            attrs = list(n["attrs"].items())
            rng.shuffle(attrs)
            n["attrs"] = dict(attrs)
        nodes.append(n)
    rng.shuffle(nodes)
    out["nodes"] = nodes
    return out, rename


def canonical(sol, tensors) -> tuple:
    """Status, bindings and every shape/dtype in the given tensor order, fresh names `_k`
    renumbered by first appearance (they are numbered in graph order)."""
    seen: dict[str, str] = {}

    def fresh(m):
        return seen.setdefault(m.group(), f"_F{len(seen)}")

    shapes = [(re.sub(r"\b_\d+\b", fresh, sol.shape(t)), sol.dtype(t)) for t in tensors]
    return sol.status, sol.bindings, shapes


def assert_same_up_to_renaming(g: dict, seed: int):
    rng = random.Random(seed)
    g2, rename = scrambled(g, rng)
    s1, s2 = solve(g, explain=False), solve(g2, explain=False)
    order = sorted(rename)
    assert canonical(s1, order) == canonical(s2, [rename[t] for t in order]), (seed, g)


@pytest.mark.parametrize("example", EXAMPLES)
def test_examples_are_order_independent(example):
    g = json.loads((ROOT / "examples" / example).read_text())
    for path_key in ("initializers",):  # "file" entries are relative to the example
        for decl in g.get(path_key, {}).values():
            if "file" in decl:
                pytest.skip("an initializer read from a file")
    assert_same_up_to_renaming(g, seed=len(example))


@pytest.mark.parametrize("seed", range(25))
def test_random_graphs_are_order_independent(seed):
    b = fuzz.build(random.Random(1000 + seed))
    with fuzz.budget(3):
        try:
            assert_same_up_to_renaming(b.graph, seed)
        except fuzz.TimeLimit:
            pytest.skip("a graph the equation solver is slow on (fuzz_regressions/)")
