"""What the fast mode took as known while grounding, held to the answer set.

The fast mode computes with the bindings found so far (functions.py: `known`) and takes
the first value of an If's condition (`@branch`). That is sound when what gave them holds:
an equation `eqn(a, b)` (or its `eqn_in_scope`, `eqn_in_body`) for a binding, the branch
`if_taken(N, B)` for a pick. On a Horn program over facts it always does: clingo's grounder
derives every atom as a fact. But the grounder calls an @-function on every rule body that
MAY hold, and a negation or an aggregate over atoms of the rule's own recursive component
(`not seq(V)` in Loop.lp, `L = #count { .. }` in sequences.lp) is only decided by the
solver, after the calls. One that finally fails may have made a binding that no run of the
graph has: a Loop's aggregate of suppositions bound s1 = 1 where the run has 2 (fuzz
control seed 11, graph 812). A user's rule file may do the same.

So after the solve, each premise not known as a fact when grounding is looked up in the
answer set; one that is not there is distrusted (functions.py: `distrust`), and the graph
is solved again without what it gave, until every premise holds (`Problem.fast_answer`).
Our rule files need no second solve on any graph of the tests; a premise checked costs a
lookup.
"""
from __future__ import annotations

import clingo

# solves again, each distrusting at least one more premise, before giving up
MAX_ROUNDS = 8


def doubtful(premises: list, ctl: clingo.Control) -> list:
    """The premises (key, atoms) none of whose atoms the grounding made a fact."""
    atoms = ctl.symbolic_atoms
    out = []
    for key, alternatives in premises:
        if not any((a := atoms[s]) is not None and a.is_fact for s in alternatives):
            out.append((key, alternatives))
    return out


def failed(model: clingo.Model, doubts: list) -> frozenset:
    """The keys of the doubtful premises none of whose atoms is in the answer set."""
    return frozenset(key for key, alternatives in doubts
                     if not any(model.contains(s) for s in alternatives))
