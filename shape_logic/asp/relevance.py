"""Which rules of the program can fire on a graph: the others are not given to clingo.

clingo prepares every rule it is given before it grounds any, and that preparation is
most of a small graph's grounding: about 25-40 µs a rule whether or not the rule ever
matches (AlexNet's 500 rules: ~25 ms of its ~37 ms). A rule can only fire when every
atom of its positive body can hold, so a rule that reads a predicate nothing can make
(no fact of this graph names it, no rule that can fire derives it) is left out, with
no effect on the answer set. The test is on the text of the facts (and of the solve's
extra program): a name that starts a statement of the facts may be a fact, one that
does not cannot be; and every name in a rule's head is taken as made. So the selection
only ever keeps too much. One value is read too: a rule reading `opset("", V)` with
comparisons `V < 7`... beside it is left out when no opset the facts state meets them
(and no rule makes opset/2): ~50 of a BERT layer's ~740 rules at opset 17, ~5% of its
grounding's instructions.

clingo notes an atom of a kept rule's body that only left-out rules derive ("atom does
not occur in any rule head"): harmless here, and the solver does not report it when the
program was selected (our files are held to the schema by the tests, not by that note).

The analysis reads the statements of our files as parsed once per process (asp/program.py),
each once; a program with a user's rule file is given whole.
"""
from __future__ import annotations

import atexit
import re
from dataclasses import dataclass
from functools import lru_cache

import clingo.ast as ast

_T = ast.ASTType


@dataclass(frozen=True)
class Use:
    """What one rule reads and makes, by predicate name: `heads` every name in its head,
    `needs` the names of its body's plain positive atoms."""

    heads: frozenset
    needs: frozenset
    # the opset versions it needs: (domain, ((comparison, integer), ..)) for each plain
    # `opset("domain", V)` of its body and the comparisons of V with integers beside it
    opsets: tuple = ()


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


def select(programs: list, facts: str, extra: str = "") -> list:
    """The statements of `programs` (per file: (statements, uses)) that can fire given
    the text of the `facts` and of an `extra` program, in their order."""
    names = frozenset(_names_of_facts(facts) | set(_NAME.findall(extra)))
    versions = _opsets(facts, extra)
    # the selection depends on nothing else: graphs with the same operators and names of
    # facts (the same model solved again, narrowing's solves) reuse it (the fixpoint:
    # ~2.5 ms of a BERT layer's ~50 ms solve). The statements are kept per process
    # (program._parsed), so their tuples' ids name them while they are cached here.
    key = (tuple(id(statements) for statements, _ in programs), names,
           None if versions is None else tuple(sorted((d, tuple(sorted(v)))
                                                      for d, v in versions.items())))
    chosen = _SELECTED.get(key)
    if chosen is None:
        if len(_SELECTED) >= _SELECTED_MAX:
            _SELECTED.clear()
        chosen = _SELECTED[key] = (_select(programs, names, versions), programs)
    return chosen[0]


_SELECTED: dict = {}  # key -> (the statements kept, the programs: their ids stay theirs)
_SELECTED_MAX = 64
# (the statements are released while clingo's library is still there: program._parsed)
atexit.register(_SELECTED.clear)


def _select(programs: list, names: frozenset, versions: dict | None) -> list:
    plan = _plan(programs)
    rules = plan.rules
    blocked = set()  # rules whose opset comparisons no stated version meets
    if versions is not None and not plan.makes_opset:
        blocked = {i for i in plan.guarded if not _opset_fits(rules[i][1].opsets, versions)}
    kept = _fixpoint(plan, names, blocked)
    return [s for s, i in plan.order if i < 0 or i in kept]


@dataclass(frozen=True)
class _Plan:
    """What the fixpoint needs of a set of programs, built once per set (a new graph's
    selection then starts from counters instead of a set difference per rule: ~1 ms of a
    new model's solve to ~0.3): the rules (statement, Use), for each name the rules that
    need it, each rule's count of needs, the rules with opset guards, the statements in
    order with their rule's index (-1: not a rule, always given)."""

    rules: list
    waiting: dict
    needs: list
    guarded: list
    order: list
    makes_opset: bool
    programs: list  # (kept: the ids of its statement tuples name it while it is cached)


_PLANS: dict = {}  # ids of the programs' statement tuples -> _Plan
atexit.register(_PLANS.clear)


def _plan(programs: list) -> _Plan:
    key = tuple(id(statements) for statements, _ in programs)
    plan = _PLANS.get(key)
    if plan is None:
        rules, order = [], []
        for statements, uses in programs:
            for s, u in zip(statements, uses):
                order.append((s, len(rules) if u is not None else -1))
                if u is not None:
                    rules.append((s, u))
        waiting: dict = {}
        for i, (_, u) in enumerate(rules):
            for name in u.needs:
                waiting.setdefault(name, []).append(i)
        if len(_PLANS) >= _SELECTED_MAX:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(
            rules, waiting, [len(u.needs) for _, u in rules],
            [i for i, (_, u) in enumerate(rules) if u.opsets], order,
            any("opset" in u.heads for _, u in rules), programs)
    return plan


def _fixpoint(plan: _Plan, names: frozenset, blocked: set) -> set:
    """The indices of the rules that can fire: a rule whose needs are all available is
    kept, and what it makes becomes available (a worklist over counters of unmet needs).
    A `blocked` rule is never kept."""
    missing = list(plan.needs)
    waiting, rules = plan.waiting, plan.rules
    available = set(names)
    for name in available:
        for i in waiting.get(name, ()):
            missing[i] -= 1
    ready = [i for i, m in enumerate(missing) if m == 0 and i not in blocked]
    kept: set = set()
    while ready:
        i = ready.pop()
        kept.add(i)
        for name in rules[i][1].heads:
            if name in available:
                continue
            available.add(name)
            for j in waiting.get(name, ()):
                missing[j] -= 1
                if missing[j] == 0 and j not in blocked:
                    ready.append(j)
    return kept


# a statement of the facts starts the text, a line or follows another's full stop; the
# names found so over-approximate the facts' predicates (a string "a.b" or a real
# "1.5e3" adds a name: harmless). (A class before the name, not `^|\.`, lets the regex
# engine skip ahead: 40% faster on DenseNet's 615 KB.)
_NAME_PATTERN = r"[a-z_][A-Za-z0-9_']*"
_STATEMENT_START = re.compile(rf"[.\n]\s*({_NAME_PATTERN})")
_FIRST = re.compile(rf"\s*({_NAME_PATTERN})")
_NAME = re.compile(_NAME_PATTERN)


# `opset("", 17).` as facts.py writes it (the graph's opset of the default domain), at the
# start of a statement (checked apart: a pattern starting with the name lets the regex
# engine skip ahead to it, ~100x faster on DenseNet's 309 KB of facts)
_OPSET_FACT = re.compile(r'opset\("((?:[^"\\]|\\.)*)",\s*(-?\d+)\)\.')
_OPERATORS = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
              "=": int.__eq__, "!=": int.__ne__}
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}


def _opsets(*texts: str) -> dict | None:
    """domain -> the opset versions the facts state; None when `opset` occurs in the texts
    otherwise than in such facts (a rule, a fact of another form): then every version is
    possible, and no rule is left out for its opset."""
    versions: dict = {}
    for text in texts:
        found = [m for m in _OPSET_FACT.finditer(text) if _starts_statement(text, m.start())]
        if text.count("opset") != len(found):
            return None
        for m in found:
            versions.setdefault(m.group(1), set()).add(int(m.group(2)))
    return versions


def _starts_statement(text: str, at: int) -> bool:
    """Whether only blanks stand between the start of the text or a full stop and `at`."""
    i = at - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    return i < 0 or text[i] == "."


def _opset_fits(guards: tuple, versions: dict) -> bool:
    """Whether some stated version of each domain a rule reads meets its comparisons
    (a rule reading `opset("", V), V < 7` cannot fire at opset 17: Add-6's broadcasting,
    Reshape's attribute before opset 5, Unsqueeze's axes before 13...)."""
    return all(any(all(_OPERATORS[op](v, c) for op, c in tests)
                   for v in versions.get(domain, ())) for domain, tests in guards)


def _names_of_facts(facts: str) -> set:
    names = set(_STATEMENT_START.findall(facts))
    if first := _FIRST.match(facts):
        names.add(first.group(1))
    return names


def _use(statement) -> Use | None:
    """What a rule reads and makes, from its text as clingo prints it (`h(X) :- a(X); not
    b(X); c(Y) : d(Y).`): clingo's syntax-tree objects cost ~5 µs an attribute read,
    ~150 µs a statement; its text ~6 µs. Conservative both ways: every name of the head
    is taken as made, and a body element is a need only when it is a plain atom
    `p(t1, .., tn)` (no `not`, condition, aggregate or comparison)."""
    if statement.ast_type == _T.External:  # `#external p(X) : q(X).` may make p
        return Use(_names(str(statement)), frozenset())
    if statement.ast_type != _T.Rule:
        return None
    head, body = _split_rule(str(statement))
    parts = [part.strip() for part in _body_elements(body)] if body else []
    return Use(_names(head), frozenset(name for part in parts if (name := _plain_atom(part))),
               _opset_guards(parts) if "opset(" in body else ())


_OPSET_ATOM = re.compile(r'opset\("((?:[^"\\]|\\.)*)",([A-Z][A-Za-z0-9_\']*)\)')
_TERM = r"([A-Z][A-Za-z0-9_']*|-?\d+)"
_COMPARISON = re.compile(rf"{_TERM} (<=|>=|!=|<|>|=) {_TERM}")


def _opset_guards(parts: list) -> tuple:
    """(domain, ((comparison, integer), ..)) for each plain `opset("domain", V)` among a
    rule body's elements, with the comparisons `V < 7`, `13 <= V`... beside it (as
    `V op integer`); nothing for a rule without them."""
    guards = []
    for part in parts:
        if m := _OPSET_ATOM.fullmatch(part):
            domain, var = m.groups()
            tests = []
            for other in parts:
                if c := _COMPARISON.fullmatch(other):
                    left, op, right = c.groups()
                    if left == var and _is_int(right):
                        tests.append((op, int(right)))
                    elif right == var and _is_int(left):
                        tests.append((_FLIPPED[op], int(left)))
            guards.append((domain, tuple(tests)))
    return tuple(guards)


def _is_int(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _names(text: str) -> frozenset:
    """Every name in `text` outside its strings."""
    return frozenset(_NAME.findall(_STRING.sub('""', text)))


def _split_rule(text: str) -> tuple[str, str]:
    """(head, body) of a rule's text, split at its top-level ':-'."""
    text = text.strip().removesuffix(".")
    at = _top_level_index(text, ":-")
    return (text, "") if at < 0 else (text[:at], text[at + 2:])


def _plain_atom(text: str) -> str | None:
    """The name of `p` or `p(t1, .., tn)` alone (nothing around it)."""
    text = text.strip()
    m = _NAME.match(text)
    if m is None:
        return None
    rest = text[m.end():]
    if rest == "":
        return m.group(0)
    if not rest.startswith("(") or not rest.endswith(")") or \
            _top_level_index(rest[1:-1], ")") >= 0:
        return None  # `p(a) < q(b)`: the parentheses are not one pair
    return m.group(0)


def _body_elements(body: str) -> list[str]:
    """The parts of a rule body's text between its top-level ';'."""
    parts, start = [], 0
    while (at := _top_level_index(body, ";", start)) >= 0:
        parts.append(body[start:at])
        start = at + 1
    parts.append(body[start:])
    return parts


def _top_level_index(text: str, sep: str, start: int = 0) -> int:
    """Where `sep` first occurs in `text` from `start`, outside brackets and strings (a
    closing bracket with nothing open counts as outside: `)` finds an unpaired one).
    (A scan of the strings, brackets and separators only: a statement's Uses are read once
    per process, ~25 us a statement with a loop over every character, 1,900 statements for
    the 20 models of bench/compare_peers.)"""
    depth = 0
    for m in _tokens(sep).finditer(text, start):
        token = m.group()
        if token == sep and depth == 0:
            return m.start()
        if token in "([{":
            depth += 1
        elif token in ")]}":
            depth -= 1
    return -1


@lru_cache(maxsize=8)
def _tokens(sep: str) -> re.Pattern:
    # a string whole (skipped), then the separator (before a bracket: `)` may be one)
    return re.compile(r'"(?:[^"\\]|\\.)*"|' + re.escape(sep) + r"|[()\[\]{}]", re.S)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
