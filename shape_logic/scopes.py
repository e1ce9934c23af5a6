"""Body scopes: what a subgraph requires holds only when it runs.

A body (an If branch, a Loop's or a Scan's body) is solved with the rest of the graph
(subgraphs.py), and a name the body does not define refers to the graph around it.
Read directly, what a body's node requires of such a tensor would hold everywhere:
onnx exports `x.squeeze(1)` of a dynamic axis as `If(shape[1] == 1, Squeeze(x, 1),
Identity(x))`, and the then-branch's Squeeze would make axis 1 of x 1 in every run; a
Loop whose body squeezes x makes it 1 even when the trip count is 0.

So each body is a scope K (a number), and it reads a tensor T of the graph around it
through a copy, `guard(K, T)`, that has T's dims with T's symbols renamed to the scope's
own (`s` is `_i3_s`, `@scope`; encodings/scopes.lp): equations in the body bind only the
scope's names, whose values hold when the body runs. What flows out is the operator's
rule file's to say (If.lp takes what both branches agree on, renamed back with
`@unscope`). A scope that surely runs whenever its node does (`scope_runs(K)`: a Loop
with a trip count >= 1 and no condition, a Scan of a non-empty sequence) is linked back:
its copies are the tensors they copy, both ways. A body nested in a body reads the
outermost graph's tensors through one copy per scope between them. Printing, a scope's
names are the names they copy (decode.py): a body's tensors exist only when it runs,
and then `_i3_s` is `s`.
"""
from __future__ import annotations

import re

from .asp.terms import quote
from .graph import Graph, Node
from .symbolic.expr import Expr

_SCOPED = re.compile(r"_i(\d+)_")

# what a conflict inside a scope that may not run means, by the scope's operator
_CANNOT_RUN = {
    "If": "an If branch cannot run with these shapes (fine if it is not taken)",
    "Loop": "a Loop body cannot run with these shapes (fine if the loop runs no iteration)",
    "Scan": "a Scan body cannot run with these shapes (fine if the sequence is empty)",
}


def scoped_name(name: str, k: int) -> str:
    return f"_i{k}_{name}"


def is_scoped(name: str) -> bool:
    return _SCOPED.match(name) is not None


def scope_expr(e: Expr, k: int) -> Expr:
    """e with every symbol renamed to scope k's. A name of another scope is renamed to
    scope k's name for what it copies (a body nested in a body reads the outer body's copy
    of `s` as its own `_i2_s`), and scope k's names stay: copies of copies are no new
    names, however often a linked scope's names come back (scopes.lp)."""
    new = {s: scoped_name(unscoped_name(s), k) for s in e.symbol_set()}
    new = {s: Expr.sym(t) for s, t in new.items() if t != s}
    return e.subs(new) if new else e


def rescope_expr(e: Expr, k: int, parent: int) -> Expr:
    """e with scope k's names renamed to scope `parent`'s (0: the graph's names), as the
    node of scope k sees them (other names stay)."""
    prefix = f"_i{k}_"
    back = {s: Expr.sym(s[len(prefix):] if parent == 0 else scoped_name(s[len(prefix):], parent))
            for s in e.symbol_set() if s.startswith(prefix)}
    return e.subs(back) if back else e


def unscoped_name(name: str) -> str:
    """The name a scope's name copies, through every scope."""
    while (m := _SCOPED.match(name)) is not None:
        name = name[m.end():]
    return name


def name_scope(name: str) -> int | None:
    """The scope whose name this is (None: a name of the graph)."""
    m = _SCOPED.match(name)
    return int(m.group(1)) if m else None


def _chain(node: Node) -> tuple:
    """The bodies node is in, outermost first: (node, attribute) of each."""
    return tuple((n, key) for n, key, _ in node.scope)


class Scopes:
    """The body scopes of a graph, and the term each node reads each input through."""

    def __init__(self, graph: Graph):
        self.ids: dict = {}  # (node, body attribute) -> scope number
        self.kind: dict = {}  # scope number -> the operator of its node
        self.parents: dict = {}  # scope number -> the scopes around it, outermost first
        self.defined: dict = {}  # tensor -> the bodies it is defined in
        self.nodes: dict = {}  # node -> the bodies it is in
        self.reads: dict = {}  # guard term -> (term it copies, scope)
        everything = graph.nodes + graph.body_nodes
        for node in everything:
            # (a neighbourhood, neighbourhood.py, may hold a body's nodes without its node)
            for i, (n, key, op) in enumerate(node.scope):
                self._number((n, key), op, node.scope[:i])
            for key in node.bodies:
                self._number((node.name, key), node.op, node.scope)
        if not self.ids:
            return
        for node in everything:
            chain = _chain(node)
            self.nodes[node.name] = chain
            for t in node.outputs:
                if t:
                    self.defined[t] = chain
            for key, (ins, _) in node.bodies.items():  # body inputs are the body's own
                for t in ins:
                    self.defined[t] = chain + ((node.name, key),)

    def _number(self, body: tuple, op: str, around: tuple) -> None:
        if body not in self.ids:
            k = self.ids[body] = len(self.ids) + 1
            self.kind[k] = op
            self.parents[k] = tuple(self.ids[(n, key)] for n, key, _ in around)

    def term(self, t: str, chain: tuple) -> str:
        """The term by which code in the bodies `chain` reads tensor t."""
        here = self.defined.get(t, ())
        k = 0
        while k < min(len(here), len(chain)) and here[k] == chain[k]:
            k += 1
        term = quote(t)
        for body in chain[k:]:
            scope = self.ids[body]
            guarded = f"guard({scope},{term})"
            self.reads.setdefault(guarded, (term, scope))
            term = guarded
        return term

    def inputs(self, node: Node) -> dict | None:
        """input name -> the term the node reads it through, where that is a copy."""
        chain = _chain(node)
        if not chain:
            return None
        out = {t: self.term(t, chain) for t in node.inputs if t}
        return {t: v for t, v in out.items() if v != quote(t)} or None

    def body_outputs(self, node: Node) -> dict | None:
        """(body, output) of a node's bodies -> the term the node reads it through (a body
        may name a tensor of the graph around it as its output)."""
        out = {}
        for key, (_, outs) in node.bodies.items():
            chain = _chain(node) + ((node.name, key),)
            for t in outs:
                term = self.term(t, chain)
                if term != quote(t):
                    out[(key, t)] = term
        return out or None

    def facts(self) -> list[str]:
        """body_scope(N, Key, K) and scope_parent(K, P) (0: the graph) for every body;
        scope_read(G, T, K) for every copy (call after the nodes' facts, which make them);
        in_scope(T) for every tensor a body defines."""
        out = [f"body_scope({quote(n)},{quote(key)},{k})." for (n, key), k in self.ids.items()]
        out += [f"scope_parent({k},{p[-1] if p else 0})." for k, p in self.parents.items()]
        out += [f"scope_read({g},{t},{k})." for g, (t, k) in self.reads.items()]
        out += [f"in_scope({quote(t)})." for t, chain in self.defined.items() if chain]
        return out

    # ----- conflicts inside bodies

    def place_scopes(self, where) -> set:
        """The scopes a conflict's place (a clingo term) is inside: those of the tensors,
        nodes and scope names it mentions, of its copies, and the scopes around them."""
        import clingo

        found: set = set()

        def visit(sym):
            if sym.type == clingo.SymbolType.String:
                s = sym.string
                for chain in (self.defined.get(s), self.nodes.get(s)):
                    found.update(self.ids[b] for b in chain or ())
                if (k := name_scope(s)) is not None:
                    found.add(k)
            elif sym.type == clingo.SymbolType.Function:
                if sym.name == "guard" and sym.arguments[0].type == clingo.SymbolType.Number:
                    found.add(sym.arguments[0].number)
                for a in sym.arguments:
                    visit(a)

        visit(where)
        for k in list(found):
            found.update(self.parents.get(k, ()))
        return found

    def unsure(self, where, runs: set) -> int | None:
        """The innermost scope of a conflict's place that may not run (its conflict then
        says that the body cannot run, not that the graph is wrong); None if all run."""
        open_ = [k for k in self.place_scopes(where) if k not in runs]
        return max(open_, key=lambda k: len(self.parents.get(k, ()))) if open_ else None

    def stuck_ifs(self, failing: set, runs: set) -> dict:
        """The If nodes neither of whose branches can run (each has a conflict of its own,
        in `failing`) although the If surely runs (every scope around it runs): node ->
        the scopes of its then_branch and else_branch. Such an If cannot run, nor can the
        graph around it."""
        out = {}
        for (n, key), k in self.ids.items():
            other = self.ids.get((n, "else_branch"))
            if key == "then_branch" and self.kind[k] == "If" and k in failing and \
                    other in failing and all(p in runs for p in self.parents[k]):
                out[n] = (k, other)
        return out


# an If's branch, and the one that runs when it does not
_OTHER_BRANCH = {"then_branch": "else_branch", "else_branch": "then_branch"}


def surely_running(graph: Graph, runs: set) -> set:
    """The scopes that run whenever the graph does: each in `runs` (scope_runs: it runs
    whenever its node does) and so is every scope around it."""
    parents = Scopes(graph).parents
    return {k for k in runs if all(p in runs for p in parents.get(k, ()))}


def split_conflicts(graph: Graph, atoms) -> None:
    """Move the conflicts inside bodies that may not run from atoms.conflicts (shape
    errors) to atoms.scope_conflicts, as (scope's operator, conflict). Conflicts in both
    branches of an If that surely runs stay errors (the If cannot run); atoms.stuck_ifs
    holds their conflicts: If -> branch -> conflicts."""
    if not graph.has_bodies or not atoms.conflicts:
        return
    atoms.conflicts, atoms.scope_conflicts, atoms.stuck_ifs = classify_conflicts(
        graph, atoms.conflicts, atoms.runs, atoms.elements)


def classify_conflicts(graph: Graph, conflicts, runs: set, elements: dict
                       ) -> tuple[list, list, dict]:
    """(errors, [(scope's operator, conflict)] inside bodies that may not run, If -> branch
    -> conflicts of Ifs that surely run and whose both branches conflict) for conflict
    atoms given the scopes that surely run (`runs`) and the If outputs whose element one
    branch alone gives (`elements`: if_element/2, rules/If.lp)."""
    if not graph.has_bodies:
        return list(conflicts), [], {}
    scopes = Scopes(graph)
    errors, unsure, scope_conflicts, stuck_ifs = [], [], [], {}
    found = set(conflicts)
    for c in conflicts:
        k = scopes.unsure(c.arguments[0], runs)
        if k is None:
            k = _echoed(scopes, c, found, runs, elements)
        if k is None:
            errors.append(c)
        else:
            unsure.append((k, c))
    stuck = {k: (n, key) for n, ks in scopes.stuck_ifs({k for k, _ in unsure}, runs).items()
             for k, key in zip(ks, ("then_branch", "else_branch"))}
    for k, c in unsure:
        if k in stuck:
            errors.append(c)
            n, key = stuck[k]
            stuck_ifs.setdefault(n, {}).setdefault(key, []).append(c)
        else:
            scope_conflicts.append((scopes.kind[k], c))
    return errors, scope_conflicts, stuck_ifs


def _echoed(scopes: Scopes, c, found: set, runs: set, elements: dict) -> int | None:
    """The scope of the branch that alone gives an If's optional output its element, when
    conflict `c` at that output (a dim or the rank of the element) is the branch's own
    output's conflict too, which no branch that may not run shows as an error; else None."""
    import clingo

    place = c.arguments[0]
    if place.name not in ("dim", "rank") or place.arguments[0].type != clingo.SymbolType.String:
        return None
    for term in elements.get(place.arguments[0].string, ()):
        echo = clingo.Function(place.name, [term, *place.arguments[1:]])
        if clingo.Function("conflict", [echo, *c.arguments[1:]]) in found:
            k = scopes.unsure(echo, runs)
            if k is not None:
                return k
    return None


def other_branch(atoms, place):
    """For a conflict's place in a branch of an If that cannot run (atoms.stuck_ifs):
    (the If, this branch, the other branch, a conflict of that one); else None."""
    for n, branches in atoms.stuck_ifs.items():
        for key, conflicts in branches.items():
            if any(c.arguments[0] == place for c in conflicts):
                other = _OTHER_BRANCH[key]
                return n, key, other, branches[other][0]
    return None


def scope_warnings(atoms) -> list[str]:
    """A warning per distinct conflict inside a body that may not run (at most five), when
    the graph has no shape error (else they may merely echo it)."""
    if not atoms.scope_conflicts or atoms.conflicts:
        return []
    from .diagnostics import _describe

    seen = dict.fromkeys(f"{_CANNOT_RUN.get(op, 'a body cannot run with these shapes')}: "
                         f"{_describe(*c.arguments).message}{_bounded(atoms, c)}"
                         for op, c in atoms.scope_conflicts)
    return list(seen)[:5]


def _bounded(atoms, conflict) -> str:
    """What the If's condition says of the branch's names in the conflict's values, which
    may be all that makes them collide (encodings/conditions.lp): ` (where t >= 5)`."""
    from .asp.terms import symbol_to_expr

    names = set()
    for v in conflict.arguments[1:]:
        try:
            names |= symbol_to_expr(v).symbol_set()
        except ValueError:
            continue
    said = [f"{unscoped_name(n)} >= {atoms.floors[n]}" for n in sorted(names)
            if is_scoped(n) and n in atoms.floors]
    said += [f"{unscoped_name(n)} <= {atoms.ceilings[n]}" for n in sorted(names)
             if is_scoped(n) and n in atoms.ceilings]
    return f" (where {', '.join(said)})" if said else ""
