"""If branches: what a branch requires holds only when it runs.

A branch's nodes are solved with the rest of the graph (subgraphs.py), and a name the
branch does not define refers to the graph around it. Read directly, what a branch's
node requires of such a tensor would hold everywhere: onnx exports `x.squeeze(1)` of a
dynamic axis as `If(shape[1] == 1, Squeeze(x, 1), Identity(x))`, and the then-branch's
Squeeze would make axis 1 of x 1 in every run.

So a branch reads a tensor of the graph around it through a copy, `guard(K, T)` for
branch scope K (a number per branch of each If), that has T's dims with T's symbols
renamed to the scope's own (`s` is `_i3_s`, rules/If.lp's `@scope`): equations in the
branch bind only the scope's names, whose values hold when the branch runs, and the If
node takes back what both branches agree on with the names renamed back (`@unscope`).
A branch nested in a branch reads the outermost graph's tensors through one copy per
scope between them. Printing, a scope's names are the names they copy (decode.py): a
branch's tensors exist only when it runs, and then `_i3_s` is `s`.
"""
from __future__ import annotations

import re

from .asp.terms import quote
from .graph import Graph, Node
from .symbolic.expr import Expr

_SCOPED = re.compile(r"_i(\d+)_")


def scoped_name(name: str, k: int) -> str:
    return f"_i{k}_{name}"


def is_scoped(name: str) -> bool:
    return _SCOPED.match(name) is not None


def scope_expr(e: Expr, k: int) -> Expr:
    """e with every symbol renamed to scope k's."""
    syms = e.symbol_set()
    return e.subs({s: Expr.sym(scoped_name(s, k)) for s in syms}) if syms else e


def unscope_expr(e: Expr, k: int) -> Expr:
    """e with scope k's names renamed back to what they copy (other names stay)."""
    prefix = f"_i{k}_"
    back = {s: Expr.sym(s[len(prefix):]) for s in e.symbol_set() if s.startswith(prefix)}
    return e.subs(back) if back else e


def unscoped_name(name: str) -> str:
    """The name a scope's name copies, through every scope."""
    while (m := _SCOPED.match(name)) is not None:
        name = name[m.end():]
    return name


def _if_chain(node: Node) -> tuple:
    """The If branches node is in, outermost first."""
    return tuple((n, key) for n, key, op in node.scope if op == "If")


class Scopes:
    """The branch scopes of a graph, and the term each node reads each input through."""

    def __init__(self, graph: Graph):
        self.ids: dict = {}  # (If node, branch) -> scope number
        self.defined: dict = {}  # tensor -> the If branches it is defined in
        self.reads: dict = {}  # guard term -> (term it copies, scope)
        for node in graph.nodes + graph.body_nodes:
            branches = [(node.name, key) for key in node.bodies] if node.op == "If" else []
            # (a neighbourhood, neighbourhood.py, may hold a branch's nodes without its If)
            for branch in branches + list(_if_chain(node)):
                self.ids.setdefault(branch, len(self.ids) + 1)
        if not self.ids:
            return
        for node in graph.nodes + graph.body_nodes:
            chain = _if_chain(node)
            for t in node.outputs:
                if t:
                    self.defined[t] = chain
            for key, (ins, _) in node.bodies.items():  # Loop's, Scan's body inputs
                inner = chain + (((node.name, key),) if node.op == "If" else ())
                for t in ins:
                    self.defined[t] = inner

    def term(self, t: str, chain: tuple) -> str:
        """The term by which code in the branches `chain` reads tensor t."""
        here = self.defined.get(t, ())
        k = 0
        while k < min(len(here), len(chain)) and here[k] == chain[k]:
            k += 1
        term = quote(t)
        for branch in chain[k:]:
            scope = self.ids[branch]
            guarded = f"guard({scope},{term})"
            self.reads.setdefault(guarded, (term, scope))
            term = guarded
        return term

    def inputs(self, node: Node) -> dict | None:
        """input name -> the term the node reads it through, where that is a copy."""
        if not self.ids:
            return None
        chain = _if_chain(node)
        if not chain:
            return None
        out = {t: self.term(t, chain) for t in node.inputs if t}
        return {t: v for t, v in out.items() if v != quote(t)} or None

    def branch_outputs(self, node: Node) -> dict | None:
        """An If node's branch output -> the term the If reads it through (a branch may
        name a tensor of the graph around it as its output)."""
        if node.op != "If" or not self.ids:
            return None
        out = {}
        for key, (_, outs) in node.bodies.items():
            chain = _if_chain(node) + ((node.name, key),)
            for t in outs:
                term = self.term(t, chain)
                if term != quote(t):
                    out[(key, t)] = term
        return out or None

    def facts(self) -> list[str]:
        """branch_scope(N, Key, K) for every branch; branch_read(G, T, K) for every copy
        (call after the nodes' facts, which make the copies)."""
        out = [f"branch_scope({quote(n)},{quote(key)},{k})." for (n, key), k in self.ids.items()]
        out += [f"branch_read({g},{t},{k})." for g, (t, k) in self.reads.items()]
        return out


def branch_names(graph: Graph) -> frozenset:
    """The tensors and nodes inside If branches (a conflict naming one is the branch's)."""
    names = set()
    for node in graph.body_nodes:
        if _if_chain(node):
            names.add(node.name)
            names.update(t for t in node.outputs if t)
            for ins, _ in node.bodies.values():
                names.update(ins)
    return frozenset(names)


def in_branch(where, names: frozenset) -> bool:
    """A conflict's place (a clingo term) is inside an If branch: it names a branch's copy
    of a tensor, a tensor or node of a branch, or a name of a branch's own."""
    import clingo

    if where.type == clingo.SymbolType.String:
        return where.string in names or is_scoped(where.string)
    if where.type == clingo.SymbolType.Function:
        return where.name == "guard" or any(in_branch(a, names) for a in where.arguments)
    return False
