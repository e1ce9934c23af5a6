"""Which rules of the program can fire on a graph: the others are not given to clingo.

clingo prepares every rule it is given before it grounds any, and that preparation is
most of a small graph's grounding: about 25-40 µs a rule whether or not the rule ever
matches (AlexNet's 500 rules: ~25 ms of its ~37 ms). A rule can only fire when every
atom of its positive body can hold, so a rule that reads a predicate nothing can make
(no fact of this graph names it, no rule that can fire derives it) is left out, with
no effect on the answer set. The same holds for a literal of a predicate only facts
make that names a string constant the facts never write (`attr(N, "auto_pad",
"SAME_UPPER")` on a graph without "SAME_UPPER"). The test is on the text of the facts
(and of the solve's extra program): a name that occurs in it may be a fact, one that
does not cannot be; so the selection only ever keeps too much.

A predicate that a left-out rule derives is declared (`#defined`), so clingo's notice
of an atom no rule derives (which solver.py turns into an error for a user's file)
still means what it did.

The analysis reads the parsed statements (asp/program.py parses our files once per
process); a program given as text, or with a user's rule file, is given whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import clingo
import clingo.ast as ast

_T = ast.ASTType
Signature = tuple[str, int]


@dataclass(frozen=True)
class Use:
    """What one rule reads and makes: `heads` the signatures it derives (None: a head the
    analysis does not read, taken as able to make anything), `needs` the signatures of
    its positive body literals, `strings` (signature, quoted string) for the string
    constants in those literals."""

    heads: frozenset | None
    needs: frozenset
    strings: tuple


def statement_uses(statements: tuple) -> tuple:
    """One Use per statement (None for a statement that is not a rule: always given)."""
    return tuple(_use(s) for s in statements)


_USES: dict = {}  # (path, mtime) -> the Uses of its statements


def uses_of(key: tuple, statements: tuple) -> tuple:
    """statement_uses, once per process for a file's statements (key: path, mtime; a
    dict, as hashing the statements themselves would walk their syntax trees)."""
    uses = _USES.get(key)
    if uses is None:
        uses = _USES[key] = statement_uses(statements)
    return uses


def select(programs: list, facts: str, extra: str = "") -> tuple[list, str]:
    """The statements of `programs` (per file: (statements, uses)) that can fire given
    the text of the `facts` and of an `extra` program, in their order, and the
    `#defined` declarations of the predicates left-out rules derive."""
    rules = [(s, u) for statements, uses in programs for s, u in zip(statements, uses)
             if u is not None]
    if any(u.heads is None for _, u in rules):
        return [s for statements, _ in programs for s in statements], ""
    kept = _fixpoint(rules, _Presence(facts, extra))
    # (a kept rule's head of the same predicate may not match clingo's atom: it warns of
    # an atom no rule head derives term by term, `clash(equal(C), ..)` beside `clash(dim(..
    dropped = {sig for s, u in rules if id(s) not in kept for sig in u.heads}
    chosen = [s for statements, uses in programs for s, u in zip(statements, uses)
              if u is None or id(s) in kept]
    return chosen, "".join(f"#defined {n}/{a}.\n" for n, a in sorted(dropped))


def _fixpoint(rules: list, facts: "_Presence") -> set:
    """The ids of the rules that can fire: a rule whose needs are all available is kept,
    and what it makes becomes available (a worklist over the needs)."""
    waiting: dict = {}  # signature -> rules waiting for it
    missing: dict = {}  # id(rule) -> how many of its needs are not yet available
    available: set = set()
    ready: list = []
    for s, u in rules:
        if u.needs:
            missing[id(s)] = len(u.needs)
            for sig in u.needs:
                waiting.setdefault(sig, []).append((s, u))
        else:
            ready.append((s, u))
    kept: set = set()

    def give(sig):
        available.add(sig)
        for w, wu in waiting.pop(sig, ()):
            missing[id(w)] -= 1
            if missing[id(w)] == 0:
                ready.append((w, wu))

    for sig in [sig for sig in waiting if facts.has_name(sig)]:
        give(sig)
    while ready:
        s, u = ready.pop()
        kept.add(id(s))
        for sig in u.heads - available:
            give(sig)
    return kept


# a statement of the facts starts a line or follows another's full stop; the names found
# so over-approximate the predicates of the facts (a string "a.b" or a real "1.5e3" adds
# a name: harmless)
# (a class before the name, not `^|\.`, lets the regex engine skip ahead: 40% faster)
_STATEMENT_START = re.compile(r"[.\n]\s*([a-z_][A-Za-z0-9_']*)")
_FIRST = re.compile(r"\s*([a-z_][A-Za-z0-9_']*)")
_NAME = re.compile(r"[a-z_][A-Za-z0-9_']*")


class _Presence:
    """Whether facts may name a predicate: the names that start a statement of the facts,
    and any name the extra program mentions."""

    def __init__(self, facts: str, extra: str):
        self.names = set(_STATEMENT_START.findall(facts)) | set(_NAME.findall(extra))
        if first := _FIRST.match(facts):
            self.names.add(first.group(1))

    def has_name(self, sig: Signature) -> bool:
        return sig[0] in self.names


def _use(statement) -> Use | None:
    if statement.ast_type != _T.Rule:
        return None
    heads = _heads(statement.head)
    needs = set()
    strings = []
    for lit in statement.body:
        # only a plain positive literal must hold: a conditional literal or an aggregate
        # can hold with no atom at all
        if lit.ast_type == _T.Literal and lit.sign == ast.Sign.NoSign:
            sig = _signature(lit.atom)
            if sig is not None:
                needs.add(sig)
                strings.extend((sig, q) for q in _strings(lit.atom))
    return Use(None if heads is None else frozenset(heads), frozenset(needs), tuple(strings))


def _heads(head) -> set | None:
    if head.ast_type == _T.Literal:
        if head.atom.ast_type == _T.BooleanConstant:
            return set()  # an integrity constraint
        if head.atom.ast_type == _T.SymbolicAtom and head.atom.symbol.ast_type == _T.Pool:
            sigs = [_term_signature(t) for t in head.atom.symbol.arguments]  # p(a;b).
        else:
            sigs = [_signature(head.atom)]
        return None if None in sigs or head.sign != ast.Sign.NoSign else set(sigs)
    if head.ast_type in (_T.Aggregate, _T.Disjunction):  # choice rule, disjunction
        literals = [e.literal for e in head.elements]
    elif head.ast_type == _T.HeadAggregate:
        literals = [e.condition.literal for e in head.elements]
    else:
        return None
    out = set()
    for lit in literals:
        sig = _signature(lit.atom) if lit.ast_type == _T.Literal else None
        if sig is None:
            return None
        out.add(sig)
    return out


def _signature(atom) -> Signature | None:
    """name/arity of a plain atom p(t1, .., tn) (not classically negated, not a pool)."""
    if atom.ast_type != _T.SymbolicAtom:
        return None
    return _term_signature(atom.symbol)


def _term_signature(term) -> Signature | None:
    if term.ast_type == _T.Function and not term.external:
        return term.name, len(term.arguments)
    if term.ast_type == _T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function \
            and term.symbol.positive:
        return term.symbol.name, len(term.symbol.arguments)
    return None


def _strings(atom) -> list[str]:
    """The string constants among an atom's arguments, quoted as facts write them."""
    term = atom.symbol
    if term.ast_type != _T.Function:
        return []
    return [str(a.symbol) for a in term.arguments
            if a.ast_type == _T.SymbolicTerm and a.symbol.type == clingo.SymbolType.String]
