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

import clingo

from .graph import Graph
from .answer_set import Atoms
from .neighbourhood import graph_distances
from .limits import stop_if_expired
from .scopes import classify_conflicts


# a core past exact_limit members is still shrunk whole in a small program (EXACT_ATOMS /
# its atoms members, EXACT_MOST at most): a KV cache's past_k with 4 heads for the graph's
# 2, in an 82-node graph, had 251 members: shrunk, 13 (271 solves, 0.14 s)
EXACT_ATOMS = 6_000_000
EXACT_MOST = 1000


def claim_sources(graph: Graph, tensors=None) -> frozenset:
    """The sources of the graph's claims - declared outputs, annotations - on every tensor
    or on `tensors` only: their dtypes, ranks and dims."""
    return frozenset(
        clingo.Function("src", [clingo.Function(kind), clingo.String(t), clingo.Function(part)])
        for kind, declared in (("output", graph.outputs), ("ann", graph.annotations))
        for t, decl in declared.items()
        if decl is not None and (tensors is None or t in tensors)
        for part in ("dtype", "rank", "dims"))


def with_output_claims(graph: Graph, sources) -> frozenset:
    """`sources` and the claims on the outputs of the nodes among them: a node switched
    off takes its outputs' declarations with it. Kept, a declared output without its node
    is a tensor the declaration alone sizes, and its names meet the graph's own sizes where
    nothing computes them (a GPT-2 block's present_k declared [D0, 4, L, 8], its Concat off,
    met the queries' batch as max(D0, batch): 858,000 computations, 6 s a solve)."""
    off = {s.arguments[1].string for s in sources if s.arguments[0].name == "node"}
    outputs = {t for n in graph.nodes if n.name in off for t in n.outputs if t}
    return frozenset(sources) | claim_sources(graph, outputs)


class CoreFinder:
    def __init__(self, problem, places: list[clingo.Symbol], allowance: int | None = None):
        """Past `allowance` computations, grounding is abandoned (limits.Abandoned)."""
        # (the problem's sources switched off are no part of the grounding: explaining the
        # graph's own errors without its declared outputs, diagnose.py)
        off = "".join(f"off({s})." for s in problem.off)
        extra = "".join(f"place({w})." for w in places) + off + (
            ("#external act(S) : source(S), not off(S).\n" if off else
             "#external act(S) : source(S).\n") +
            "#external check(W) : place(W).\n"
            ":- conflict(W, _, _), check(W).\n")
        self.allowance = allowance
        self.ctl, _ = problem.control(extra, allowance=allowance)
        self.graph = problem.graph
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
        self._index = None

    @property
    def exact_members(self) -> int:
        """How many members a core may have and still be shrunk one at a time: a solve here
        takes ~0.1 ms + ~0.15 us an atom of the ground program, and the shrinking about a
        second at most (a deterministic count: the same graph gets the same core)."""
        return min(EXACT_MOST, EXACT_ATOMS // max(len(self.ctl.symbolic_atoms), 1))

    @property
    def sources(self) -> set[clingo.Symbol]:
        return set(self.act_lit)

    def core(self, active: set, place: clingo.Symbol) -> set | None:
        """The sources of a core if `active` forces a conflict at `place`, else None."""
        assumptions = [lit if s in active else -lit for s, lit in self.act_lit.items()]
        assumptions += [lit if p == place else -lit for p, lit in self.check_lit.items()]
        found: list[int] = []
        self.solves += 1
        stop_if_expired("explaining the shape error")
        result = self.ctl.solve(assumptions=assumptions, on_core=found.extend)
        if result.satisfiable:
            return None
        return {self.source_of[lit] for lit in found if lit in self.source_of}

    def conflict_places(self, active: set) -> set:
        """The places of the shape errors with `active` sources on (one satisfiable solve):
        not those inside a body that may not run then (a branch not taken: a warning, as
        scopes.split_conflicts has it for the graph's own solve)."""
        assumptions = [lit if s in active else -lit for s, lit in self.act_lit.items()]
        assumptions += [-lit for lit in self.check_lit.values()]
        atoms = list(self.ctl.symbolic_atoms.by_signature("conflict", 3))
        runs_atoms = list(self.ctl.symbolic_atoms.by_signature("scope_runs", 1))
        element_atoms = list(self.ctl.symbolic_atoms.by_signature("if_element", 2))
        found: list = []
        runs: set = set()
        elements: dict = {}

        def on_model(model):
            found.extend(a.symbol for a in atoms if model.is_true(a.literal))
            runs.update(a.symbol.arguments[0].number for a in runs_atoms
                        if model.is_true(a.literal))
            for a in element_atoms:
                if model.is_true(a.literal):
                    y, o = a.symbol.arguments
                    elements.setdefault(y.string, []).append(o)

        self.solves += 1
        stop_if_expired("explaining the shape error")
        self.ctl.solve(assumptions=assumptions, on_model=on_model)
        errors, _, _ = classify_conflicts(self.graph, found, runs, elements)
        return {c.arguments[0] for c in errors}

    def view(self, active: set, tensors) -> "Atoms":
        """The shown atoms about `tensors` (and every conflict and binding) with `active`
        sources on - read from this grounding, without grounding again."""
        from .answer_set import Atoms

        if self._index is None:
            self._index = _index_atoms(self.ctl)
        by_tensor, global_atoms = self._index
        watched = [a for t in tensors for a in by_tensor.get(t, ())] + global_atoms
        assumptions = [lit if s in active else -lit for s, lit in self.act_lit.items()]
        assumptions += [-lit for lit in self.check_lit.values()]
        shown: list[clingo.Symbol] = []

        def on_model(model):
            shown.extend(sym for fact, lit, sym in watched if fact or model.is_true(lit))

        self.solves += 1
        stop_if_expired("explaining the shape error")
        self.ctl.solve(assumptions=assumptions, on_model=on_model)
        return Atoms.read(shown)

    def minimal_core(self, place: clingo.Symbol, distance, active: set | None = None,
                     exact_limit: int = 200, radius: int = 3):
        """(core, minimal): a set of (active) sources forcing the conflict at `place`.

        Deletion-based shrinking proves subset-minimality with one solve per member. When
        clingo's first core is larger than `exact_limit` (a conflict whose values come
        from far upstream: symbolic dims carried through a whole network) only the members
        within `radius` of the conflict and of the core's meeting node are shrunk - the rest
        stays as context, and `minimal` is False."""
        core = self.core(self.sources if active is None else active, place)
        if core is None:
            return None, False
        exact_limit = max(exact_limit, self.exact_members)
        # the sources no path of the graph links to the conflict go first, in one checked
        # step: clingo's first core takes along what it assumed (a chain of 220 Relus beside
        # a KV cache's Concat kept the core past exact_limit, and its last Relu was named
        # as the error, five times). (A name they share with the conflict's inputs links
        # them without a path: then the step keeps them.)
        far = getattr(distance, "far", None)
        apart = {s for s in core if far is not None and distance(s) >= far}
        if apart:
            core = self.core(core - apart, place) or core
        # a first core still past exact_limit: the members within a ball around the
        # conflict, its radius doubling, checked one solve each (SqueezeNet's input declared
        # with 6 channels for its 3: a first core of 154 members through the whole network,
        # its last Relu named as the error's node, five diagnostics; the ball of radius 4
        # holds the input, the first Conv and its weights)
        ball = 4
        while len(core) > exact_limit and far is not None and ball < far:
            near = {s for s in core if distance(s) <= ball}
            smaller = self.core(near, place) if near and near != core else None
            if smaller is not None:
                core = smaller
            ball *= 2
        exact = len(core) <= exact_limit
        candidates = core if exact else near_ends(self.graph, core, distance, radius)
        for s in sorted(candidates, key=lambda s: (-distance(s), str(s))):
            if s not in core:
                continue
            smaller = self.core(core - {s}, place)
            if smaller is not None:
                core = smaller
        return core, exact


def _index_atoms(ctl: clingo.Control):
    """The shown atoms of the grounding, by tensor (dims, ranks, dtypes) and global ones."""
    by_tensor: dict[str, list] = {}
    for name, arity in (("dim", 3), ("rank", 2), ("dtype", 2)):
        for a in ctl.symbolic_atoms.by_signature(name, arity):
            t = a.symbol.arguments[0]
            if t.type == clingo.SymbolType.String:
                by_tensor.setdefault(t.string, []).append((a.is_fact, a.literal, a.symbol))
    global_atoms = [(a.is_fact, a.literal, a.symbol)
                    for name, arity in (("conflict", 3), ("bind", 2), ("range", 3),
                                        ("unsolved", 2))
                    for a in ctl.symbolic_atoms.by_signature(name, arity)]
    return by_tensor, global_atoms


def near_ends(graph: Graph, core, distance, radius: int = 3) -> set:
    """The members of a core too long to shrink whole that are shrunk and shown: those
    within `radius` of the conflict (`distance`) and of the core's meeting node (a dim
    carried down a long chain to the node that requires another is explained at that
    node, not only at the chain's start)."""
    near = {s for s in core if distance(s) <= radius}
    meet = meeting_node(graph, core)
    if meet is not None:
        from_meet = distances_from(graph, None, meet.name)
        near |= {s for s in core if from_meet(s) <= radius}
    return near


def meeting_node(graph: Graph, core):
    """Where a core's two flows of values meet: its last node in graph order (for a
    feed-forward graph); None when it holds no node."""
    in_core = {s.arguments[1].string for s in core if s.arguments[0].name == "node"}
    members = [n for n in graph.nodes if n.name in in_core]
    return members[-1] if members else None


def distances_from(graph: Graph, tensor: str | None, node: str | None = None):
    """Graph distance of every node and tensor from a tensor (or node): far sources go first."""
    dist = graph_distances(graph, tensor, node)
    far = len(dist) + 1

    def distance(source: clingo.Symbol) -> int:
        kind, name = source.arguments[0].name, source.arguments[1].string
        return dist.get(("n", name) if kind == "node" else ("t", name), far)

    distance.far = far  # (what a source no path reaches is at)
    return distance
