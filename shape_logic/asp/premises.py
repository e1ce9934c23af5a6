"""What the fast mode took as known while grounding, held to when it became known.

The fast mode computes with the bindings found so far (functions.py: `known`) and takes
the first value of an If's condition (`@branch`). A binding is sound when the equation
that gave it, `eqn(a, b)` (or `eqn_in_scope`, `eqn_in_body`), holds; a pick when
`if_cond(N, V)` does. On a Horn program over facts it always does: clingo's grounder
derives every atom as a fact, and it calls @relate and @branch only on facts (they sit
in rules whose body is that one atom: the grounder may call a function of a rule's head
as soon as its arguments are bound, before the rest of the body is checked). But
a negation or an aggregate over atoms of the rule's own recursive component (a user's
`not dim(Y, 0, 7)`) is only decided by the solver, after grounding, and the
grounder calls the @-functions of every body that MAY hold. A binding made from such a
body was computed with all the same, and may even make its own equation a fact later (a
Loop's old aggregate of suppositions bound s1 = 1 where the run has 2, fuzz control seed
11, graph 812, and the size 1 it gave made the equation s1 = 1 a fact).

So a solve whose program has such a rule (`nonmonotone`) watches the grounding: an
observer (`Stamps`) numbers the ground rules as clingo outputs them and notes when each
atom became a fact; each premise notes the number when it was taken. A premise none of
whose atoms was a fact by then is speculative (`speculative`): it is distrusted
(functions.py: `distrust`: a binding's symbol is not substituted, a pick not taken) and
the graph solved again without it, until none is (`held_answer`). A solve without such
a rule needs no watching: every atom is a fact, and the solver checks that it was
(statistics: no rule with a body), or watches the grounding again.
"""
from __future__ import annotations

import clingo

try:  # clingo 5.x's cffi bindings
    from clingo._internal import _c_call, _lib
except ImportError:  # pragma: no cover - another clingo build
    _c_call = _lib = None

from ..errors import InputError
from .program import is_shipped

# solves again, each distrusting at least one more premise, before giving up
MAX_ROUNDS = 8

# Our rule files with a negation or an aggregate over what their own recursive component
# derives (tests/core/test_determinate.py finds them all): none - complements and counts
# are Horn chains, and what is negated (`not seq(V)`, `not opt(Y)`) is decided before, from
# the graph's structure. A user's rule file may have any.
NONMONOTONE: frozenset = frozenset()


def nonmonotone(rule_files) -> bool:
    """Whether a solve's rule files may have a rule the grounder cannot decide."""
    return any(not is_shipped(rf.path) or rf.path.name in NONMONOTONE for rf in rule_files)


class Stamps:
    """A clingo Observer numbering the ground rules as the grounder outputs them: `count`
    of them so far, and for each atom (its program literal) the number of the first rule
    that made it a fact (a rule with an empty body)."""

    def __init__(self):
        self.count = 0
        self.fact_at: dict[int, int] = {}

    def rule(self, choice: bool, head, body) -> None:
        self.count += 1
        if not body and not choice:
            for atom in head:
                self.fact_at.setdefault(atom, self.count)


def speculative(premises: list, ctl: clingo.Control, stamps: Stamps) -> frozenset:
    """The keys of the premises (key, atoms, stamp) none of whose atoms was a fact when the
    premise was taken (stamp: the number of ground rules output by then)."""
    atoms = ctl.symbolic_atoms
    out = set()
    for key, alternatives, stamp in premises:
        founded = False
        for s in alternatives:
            a = atoms[s]
            if a is not None and stamps.fact_at.get(a.literal, stamp + 1) <= stamp:
                founded = True
                break
        if not founded:
            out.add(key)
    return frozenset(out)


def determinate(ctl: clingo.Control) -> bool:
    """After solving: every atom of the ground program was a fact (no rule with a body
    reached the solver)."""
    return _statistic(ctl, "problem", "lp", "bodies") == 0


def _statistic(ctl: clingo.Control, *path: str) -> float:
    """One value of the solve's statistics, looked up by its path: `ctl.statistics` builds
    the whole tree in Python, ~100 calls into clingo (~1 ms a solve). Through clingo's
    cffi layer, which is private: without it (another clingo), through the tree."""
    if _lib is None:  # pragma: no cover - another clingo build
        value = ctl.statistics
        for name in path:
            value = value[name]
        return value
    stats = _c_call("clingo_statistics_t*", _lib.clingo_control_statistics, ctl._rep)
    key = _c_call("uint64_t", _lib.clingo_statistics_root, stats)
    for name in path:
        key = _c_call("uint64_t", _lib.clingo_statistics_map_at, stats, key, name.encode())
    return _c_call("double", _lib.clingo_statistics_value_get, stats, key)


def held_answer(problem, extra: str = "", cancel=None, active=None,
                allowance: int | None = None):
    """(atoms, funcs) of `problem`'s answer set with the sources facts (every one; or as
    `extra` switches them on or off, `active` those on: solver.Problem.atoms), solved again
    without what it took as known before it was. A program whose rules the grounder
    decides alone is not watched; one that then has a rule left for the solver (a
    user's, or one of ours that NONMONOTONE misses) is solved again watched. What the
    solve with every source distrusts, later ones with every source distrust too.
    `allowance`: see solver.Problem.control (limits.Abandoned past it)."""
    watch = nonmonotone(problem.rule_files)
    distrust = problem.distrust
    for _ in range(MAX_ROUNDS):
        stamps = Stamps() if watch else None
        ctl, funcs = problem.control(extra, sourced=extra != "", cancel=cancel,
                                     stamps=stamps, distrust=distrust, allowance=allowance)
        atoms, funcs = problem._answer(ctl, funcs, active)
        if stamps is None:
            if not funcs.premises or determinate(ctl):
                return atoms, funcs
            watch = True
        else:
            unfounded = speculative(funcs.premises, ctl, stamps)
            if not unfounded:
                return atoms, funcs
            distrust |= unfounded
            if extra == "":
                problem.distrust = distrust
        atoms.release_control()
    raise InputError("the rule files' negations or aggregates over what they derive left "
                     f"what the solve took as known undecided after {MAX_ROUNDS} solves "
                     "(rule files: " + ", ".join(str(rf.path) for rf in problem.rule_files)
                     + ")")
