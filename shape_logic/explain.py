"""Minimal unsat cores: which sources - inputs, annotations, initializers, nodes - force a conflict.

Explain mode grounds the same program with every source an `#external act(S)`
and the conflicts at the chosen places forbidden, then asks clingo for a core
under assumptions. Every source gets an explicit +/- assumption (an external
left to its default is false, and cores come out as [x, -x]; ASP-NOTES trap 4).
The core is shrunk by deletion: drop one member, solve again, keep clingo's
(smaller) new core when still unsatisfiable. Members far from the conflict are
tried first, so what remains is the local explanation.
"""
from __future__ import annotations

from collections import deque

import clingo

from .graph import Graph


class CoreFinder:
    def __init__(self, problem, places: list[clingo.Symbol]):
        extra = "".join(f"place({w})." for w in places) + (
            "#external act(S) : source(S).\n"
            "#external check(W) : place(W).\n"
            ":- conflict(W, _, _), check(W).\n")
        self.ctl, _ = problem.control(extra)
        self.act_lit: dict[clingo.Symbol, int] = {}
        self.check_lit: dict[clingo.Symbol, int] = {}
        for atom in self.ctl.symbolic_atoms.by_signature("act", 1):
            self.act_lit[atom.symbol.arguments[0]] = atom.literal
        for atom in self.ctl.symbolic_atoms.by_signature("check", 1):
            self.check_lit[atom.symbol.arguments[0]] = atom.literal
        for table, name in ((self.act_lit, "act"), (self.check_lit, "check")):
            for sym in table:
                self.ctl.assign_external(clingo.Function(name, [sym]), None)
        self.source_of = {lit: s for s, lit in self.act_lit.items()}
        self.solves = 0

    @property
    def sources(self) -> set[clingo.Symbol]:
        return set(self.act_lit)

    def core(self, active: set, place: clingo.Symbol) -> set | None:
        """The sources of a core if `active` forces a conflict at `place`, else None."""
        assumptions = [lit if s in active else -lit for s, lit in self.act_lit.items()]
        assumptions += [lit if p == place else -lit for p, lit in self.check_lit.items()]
        found: list[int] = []
        self.solves += 1
        result = self.ctl.solve(assumptions=assumptions, on_core=found.extend)
        if result.satisfiable:
            return None
        return {self.source_of[lit] for lit in found if lit in self.source_of}

    def minimal_core(self, place: clingo.Symbol, distance, active: set | None = None) -> set | None:
        """A subset-minimal set of (active) sources forcing the conflict at `place`."""
        core = self.core(self.sources if active is None else active, place)
        if core is None:
            return None
        for s in sorted(core, key=lambda s: (-distance(s), str(s))):
            if s not in core:
                continue
            smaller = self.core(core - {s}, place)
            if smaller is not None:
                core = smaller
        return core


def distances_from(graph: Graph, tensor: str | None, node: str | None = None):
    """Graph distance of every node and tensor from a tensor (or node): far sources go first."""
    adjacent: dict[tuple, list[tuple]] = {}
    for n in graph.nodes:
        for t in n.inputs + n.outputs:
            if t:
                adjacent.setdefault(("n", n.name), []).append(("t", t))
                adjacent.setdefault(("t", t), []).append(("n", n.name))
    start = ("t", tensor) if tensor is not None else ("n", node)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in adjacent.get(v, ()):
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    far = len(dist) + 1

    def distance(source: clingo.Symbol) -> int:
        kind, name = source.arguments[0].name, source.arguments[1].string
        return dist.get(("n", name) if kind == "node" else ("t", name), far)

    return distance
