"""Which of our rule files have a rule the grounder cannot decide alone: a negation, an
aggregate or a condition over a predicate of the rule's own recursive component
(asp/premises.py: NONMONOTONE lists them, and a solve with one of them is watched)."""
from collections import defaultdict

import clingo
import clingo.ast as ast

from shape_logic.asp import program
from shape_logic.asp.premises import NONMONOTONE

T = ast.ASTType


def _name(atom) -> str | None:
    if atom.ast_type != T.SymbolicAtom:
        return None
    s = atom.symbol
    if s.ast_type == T.Function:
        return s.name
    if s.ast_type == T.SymbolicTerm and s.symbol.type == clingo.SymbolType.Function:
        return s.symbol.name
    return None


def _body(literal, plain: bool = True):
    """(predicate, plain) for each atom of a body element: plain when positive and not
    inside an aggregate or a condition."""
    if literal.ast_type == T.ConditionalLiteral:
        for part in [literal.literal, *literal.condition]:
            yield from _body(part, False)
        return
    atom = literal.atom
    if atom.ast_type in (T.BodyAggregate, T.Aggregate):
        for element in atom.elements:
            for part in [*getattr(element, "condition", ()),
                         *([element.literal] if hasattr(element, "literal") else [])]:
                yield from _body(part, False)
        return
    name = _name(atom)
    if name is not None:
        yield name, plain and literal.sign == ast.Sign.NoSign


GUESS_RULE = ("Guess.lp", """dim(Y, 0, E) :- op(N, "Guess"), input(N, 0, X), output(N, 0, Y),
    dim(X, 0, E), not dim(Y, 0, 7).""")


COUNT_RULE = ("Count.lp", """dim(Y, 0, K) :- op(N, "Count"), input(N, 0, X), output(N, 0, Y),
    K = #count { V : value(X, I, V) }.""")


def our_rules(extra=()) -> list:
    """(file name, rule) for every rule of our encodings and rule files, and of the `extra`
    ones ((name, text)), each file parsed once."""
    files = program.core_encodings() + [program.VOIDS_FILE, program.ROWS_FILE] + \
        sorted(program.RULES_DIR.glob("*.lp"))
    rules = []
    for f in dict.fromkeys(files):
        ast.parse_files([str(f)], lambda s, f=f: s.ast_type == T.Rule and rules.append((f.name, s)))
    for name, text in extra:
        ast.parse_string(text, lambda s, f=name: s.ast_type == T.Rule and rules.append((f, s)))
    return rules


def undecided_rules(rules: list) -> dict:
    """file -> [(head predicate, predicate read otherwise than plainly)] of the `rules`
    (our_rules) reading a predicate of their own recursive component otherwise than as a
    plain positive atom."""
    edges = defaultdict(set)
    uses = []
    for f, r in rules:
        head = r.head.atom if r.head.ast_type == T.Literal else None
        h = _name(head) if head is not None else None
        if h is None:
            continue
        for p, plain in (x for lit in r.body for x in _body(lit)):
            edges[h].add(p)
            if not plain:
                uses.append((f, h, p))
    component = _components(edges)
    out = defaultdict(list)
    for f, h, p in uses:
        if p in component and component.get(h) == component[p]:
            out[f].append((h, p))
    return dict(out)


def _components(edges: dict) -> dict:
    """predicate -> its strongly connected component (an id), by Tarjan's algorithm,
    iteratively (the shape predicates form one component of hundreds)."""
    index, low, on, stack, comp = {}, {}, set(), [], {}
    for root in list(edges):
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges.get(w, ()))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp[w] = v
                        if w == v:
                            break
    return comp


def test_the_files_with_rules_the_solver_decides_are_the_watched_ones():
    found = undecided_rules(our_rules())
    assert set(found) == NONMONOTONE == set(), found


def test_the_analysis_finds_a_negation_and_an_aggregate_through_the_recursion():
    # a user's file: a negation of dim/3, and an aggregate over value/3 (as Unique.lp
    # counted distinct values before stop 29)
    rules = our_rules(extra=[GUESS_RULE, COUNT_RULE])
    found = undecided_rules(rules)
    assert found == {"Guess.lp": [("dim", "dim")], "Count.lp": [("dim", "value")]}
    # and Loop.lp's `not seq(V)` is decided by the grounder: whether a value is a
    # sequence follows from the graph's structure alone, in a component of its own
    assert "seq" in {p for f, r in rules if f == "Loop.lp"
                     for lit in r.body for p, plain in _body(lit) if not plain}


def test_the_functions_that_take_something_as_known_are_called_on_one_atom():
    # @relate (a binding) and @branch (an If's pick) are noted with the atom they are
    # called on (asp/premises.py); the grounder may call a function of a rule's head as
    # soon as its arguments are bound, before the rest of the body is checked (@branch on
    # a Less node whose input 0 had a value 0 or 1, before `if_node(N)` failed), so the
    # body must be that one atom
    heads = [(f, r) for f, r in our_rules()
             if "@relate" in str(r.head) or "@branch" in str(r.head)]
    assert len(heads) >= 4
    for name, rule in heads:
        assert len(rule.body) == 1 and rule.body[0].atom.ast_type == T.SymbolicAtom, \
            (name, str(rule))
