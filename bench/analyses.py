"""pyDatalog relations of shape_logic/analyses on large graphs, against the same relation
in clingo and as a plain Python graph walk, measured in the same run.

    python bench/analyses.py [--nodes 10000] [--only taint,components,lineage,streaming]

- taint:      runtime(T) over a transformer-like graph whose weights are initializers,
              each weight behind a two-node constant chain (constant.py's RULES)
- components: comp(seed, Y) per component of that graph's constant nodes
- lineage:    dep(goal, Y) over the explain-mode ground rules (lineage.py), asked for the
              last tensor's shape; the grounding is timed apart
- streaming:  streamed(T, I) over a WaveNet-like stack of ~nodes nodes (streaming.py)

Times are seconds; "facts" is asserting the facts into pyDatalog, "query" the query.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import deque

import clingo

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "analyses"))

from shape_logic.analyses import constant, lineage, streaming  # noqa: E402
from shape_logic.analyses.datalog import KnowledgeBase  # noqa: E402


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def clingo_count(program: str, facts: str, pred: str, arity: int) -> tuple[int, float]:
    def run():
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], program + facts)
        ctl.ground([("base", [])])
        return sum(1 for _ in ctl.symbolic_atoms.by_signature(pred, arity))
    return timed(run)


def q(v) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)


def fact_text(name: str, rows) -> str:
    return "".join(f"{name}({','.join(q(v) for v in r)}).\n" for r in rows)


def report(name: str, n_items: int, facts_s: float, query_s: float, n_answers: int,
           peers: dict):
    total = facts_s + query_s
    line = (f"{name:11} {n_items:>8} facts  pyDatalog: facts {facts_s:7.2f}  query "
            f"{query_s:7.2f}  ({n_answers} answers)")
    for peer, (count, secs) in peers.items():
        ok = "" if count == n_answers else f" [count {count}!]"
        line += f" | {peer} {secs:6.3f} (x{total / max(secs, 1e-9):.0f}){ok}"
    print(line, flush=True)


# ----- graphs
def folding_graph(n_nodes: int) -> dict:
    from synthetic import NODES_PER_LAYER, transformer

    layers = max(1, n_nodes // (NODES_PER_LAYER + 16))
    g = transformer(layers * NODES_PER_LAYER, d=8, heads=2)
    for name in [k for k in g["inputs"] if k.startswith("l")]:
        decl = g["inputs"].pop(name)
        g["initializers"][name + "_raw"] = {"dtype": "f32", "shape": decl["shape"], "data": 0.5}
        g["nodes"].append({"name": name + "_n1", "op": "Neg", "inputs": [name + "_raw"],
                           "outputs": [name + "_neg"]})
        g["nodes"].append({"name": name + "_n2", "op": "Neg", "inputs": [name + "_neg"],
                           "outputs": [name]})
    return g


def bench_taint_and_components(n_nodes: int, only: set):
    from shape_logic.load import load_graph
    from shape_logic.validate import validate

    g = load_graph(folding_graph(n_nodes))
    order = validate(g)
    print(f"folding graph: {len(g.nodes)} nodes, {len(g.tensors())} tensors", flush=True)
    seeds = [(t,) for t in g.inputs]
    reads = [(n.name, t) for n in g.nodes for t in n.inputs if t]
    writes = [(n.name, t) for n in g.nodes for t in n.outputs if t]
    kb, t_load = timed(lambda: KnowledgeBase(constant.RULES))
    _, t_facts = timed(lambda: (kb.facts("seed", seeds), kb.facts("reads", reads),
                                kb.facts("writes", writes)))
    runtime, t_query = timed(lambda: kb.column("runtime", None))
    if "taint" in only:
        users: dict = {}
        for n, t in reads:
            users.setdefault(t, []).append(n)
        out_of = {}
        for n, t in writes:
            out_of.setdefault(n, []).append(t)

        def walk():
            seen = {s for (s,) in seeds}
            todo = deque(seen)
            while todo:
                t = todo.popleft()
                for n in users.get(t, ()):
                    for o in out_of.get(n, ()):
                        if o not in seen:
                            seen.add(o)
                            todo.append(o)
            return len(seen)

        prog = "runtime(T) :- seed(T).\nruntime(T) :- runtime(S), reads(N, S), writes(N, T).\n"
        facts = fact_text("seed", seeds) + fact_text("reads", reads) + \
            fact_text("writes", writes)
        report("taint", len(seeds) + len(reads) + len(writes), t_load + t_facts, t_query,
               len(runtime), {"clingo": clingo_count(prog, facts, "runtime", 1),
                              "python": timed(walk)})
    if "components" in only:
        rn, t_rn = timed(lambda: kb.column("runtime_node", None))
        cnodes = [n for n in order if n.name not in rn]
        _, t_cf = timed(lambda: kb.facts("cnode", ((n.name,) for n in cnodes)))
        comps, t_comp = timed(lambda: constant._components(g, kb, cnodes, reads))

        def walk():
            names = {n.name for n in cnodes}
            adj: dict = {}
            prod = {t: n for n, t in writes if n in names}
            for n, t in reads:
                if n in names and t in prod:
                    adj.setdefault(n, []).append(prod[t])
                    adj.setdefault(prod[t], []).append(n)
            seen, count = set(), 0
            for s in names:
                if s in seen:
                    continue
                count += 1
                seen.add(s)
                todo = [s]
                while todo:
                    for m in adj.get(todo.pop(), ()):
                        if m not in seen:
                            seen.add(m)
                            todo.append(m)
            return count

        report("components", len(cnodes), t_cf, t_rn + t_comp, len(comps),
               {"python": timed(walk)})


def bench_lineage(n_nodes: int):
    from synthetic import transformer

    from shape_logic.solver import Problem

    g = transformer(n_nodes)
    problem = Problem.load(g)
    obs = lineage._Rules()
    (ctl, _), t_ground = timed(lambda: problem.control("#external act(S) : source(S).\n",
                                                       observer=obs))
    symbol = {a.literal: a.symbol for a in ctl.symbolic_atoms}
    last = g["nodes"][-1]["outputs"][0]
    seeds = [lit for lit, s in symbol.items() if lineage._about(s, last, None)]
    print(f"lineage: {len(g['nodes'])} nodes, grounding {t_ground:.2f} s, "
          f"{len(obs.edges)} ground-rule edges", flush=True)
    kb, t_load = timed(lambda: KnowledgeBase(lineage.RULES))
    _, t_facts = timed(lambda: (kb.facts("edge", obs.edges),
                                kb.facts("edge", ((0, s) for s in seeds))))
    reached, t_query = timed(lambda: kb.column("dep", 0, None))
    adj: dict = {}
    for h, b in obs.edges:
        adj.setdefault(h, []).append(b)

    def walk():
        seen = set()
        todo = list(seeds)
        seen.update(seeds)
        while todo:
            for b in adj.get(todo.pop(), ()):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return len(seen)

    prog = "dep(Y) :- goal(Y).\ndep(Y) :- dep(X), edge(X, Y).\n"
    facts = fact_text("edge", obs.edges) + fact_text("goal", ((s,) for s in seeds))
    report("lineage", len(obs.edges), t_load + t_facts, t_query, len(reached),
           {"clingo": clingo_count(prog, facts, "dep", 1), "python": timed(walk)})


def bench_streaming(n_nodes: int):
    from wavenet import wavenet

    from shape_logic.load import load_graph

    layers = max(1, (n_nodes - 6) // 9)
    g = load_graph(wavenet(channels=2, dilations=[1 + i % 8 for i in range(layers)]))
    ranks = {t: 3 for t in g.tensors()}  # activations and conv weights: [1|C, C, T|k]
    for t, info in g.initializers.items():
        ranks[t] = info.data.ndim
    ranks["mixed"] = ranks["tr"] = 3
    static = {t: info.data for t, info in g.initializers.items()}
    rows = []

    def collect():
        for node in g.nodes:
            for k, x in enumerate(node.inputs):
                for i in range(ranks.get(x, 0)):
                    r = streaming.axis_rule(g, node, k, i, ranks.get, static.get)
                    if not isinstance(r, str):
                        rows.append((node.name, x, i, node.outputs[0], r))
    _, t_rules = timed(collect)
    print(f"streaming: {len(g.nodes)} nodes, axis rules in Python {t_rules:.2f} s", flush=True)
    kb, t_load = timed(lambda: KnowledgeBase(streaming.RULES))
    _, t_facts = timed(lambda: (kb.facts("seed", [("x", 2)]), kb.facts("maps", rows)))
    found, t_query = timed(lambda: kb.ask("streamed", None, None))
    nxt: dict = {}
    for n, x, i, y, j in rows:
        nxt.setdefault((x, i), []).append((y, j))

    def walk():
        seen = {("x", 2)}
        todo = [("x", 2)]
        while todo:
            for p in nxt.get(todo.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return len(seen)

    prog = ("streamed(T, I) :- seed(T, I).\n"
            "streamed(Y, J) :- streamed(X, I), maps(N, X, I, Y, J).\n")
    facts = 'seed("x", 2).\n' + fact_text("maps", rows)
    report("streaming", len(rows), t_load + t_facts, t_query, len(found),
           {"clingo": clingo_count(prog, facts, "streamed", 2), "python": timed(walk)})


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nodes", type=int, default=10000)
    p.add_argument("--only", default="taint,components,lineage,streaming")
    args = p.parse_args()
    only = set(args.only.split(","))
    if only & {"taint", "components"}:
        bench_taint_and_components(args.nodes, only)
    if "lineage" in only:
        bench_lineage(args.nodes)
    if "streaming" in only:
        bench_streaming(args.nodes)


if __name__ == "__main__":
    main()
