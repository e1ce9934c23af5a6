"""What a rule file may contain: Horn rules over the vocabulary, and nothing that reaches
outside the program (docs/RULES.md, "What a rule file may not do").

Rule files come from other people (`--rules DIR`), so before clingo reads one:

- text checks, on the file with comments blanked (clingo would act on these while
  parsing): no `#script` (code), no `#include` (other files - even parsing one opens
  the path), no `#external` / `#program` (the solver's own);
- `@`-calls only to the public arithmetic of `Functions` (clingo looks the name up on
  the context object, so `@__init__(...)` would reach Python's internals);
- statement checks, on clingo's syntax tree: no integrity constraints, choice rules,
  disjunctions, optimization, heuristics or theory atoms - the fast mode relies on one
  answer set, which a constraint would remove (hiding every shape) and a choice would
  make arbitrary. A node that is wrong is stated with `invalid(N, Why)`.

A predicate no file defines is reported after grounding (solver.py): clingo only
tells then.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..errors import InputError

_FORBIDDEN_TEXT = [
    (re.compile(r"#\s*script\b"), "embedded scripts (#script) are not allowed in rule files"),
    (re.compile(r"#\s*include\b"), "#include is not allowed in rule files"),
    (re.compile(r"#\s*(external|program)\b"), "#external and #program are reserved for the solver"),
]
_CALL = re.compile(r"@\s*([A-Za-z_][A-Za-z0-9_]*)")

_FORBIDDEN_STATEMENTS = {
    "Minimize": "optimization (#minimize, weak constraints) is not allowed in rule files",
    "Heuristic": "#heuristic is not allowed in rule files",
    "Edge": "#edge is not allowed in rule files",
    "ProjectAtom": "#project is not allowed in rule files",
    "ProjectSignature": "#project is not allowed in rule files",
    "TheoryDefinition": "#theory is not allowed in rule files",
    "External": "#external and #program are reserved for the solver",
    "Script": "embedded scripts (#script) are not allowed in rule files",
}
_FORBIDDEN_HEADS = {
    "Aggregate": "choice rules are not allowed in rule files (the program has one answer set)",
    "HeadAggregate": "choice rules are not allowed in rule files (the program has one answer set)",
    "Disjunction": "disjunctive heads are not allowed in rule files (the program has one "
                   "answer set)",
    "TheoryAtom": "theory atoms are not allowed in rule files",
}
_CONSTRAINT = ("integrity constraints are not allowed in rule files: derive "
               "invalid(N, Why) for a node that is wrong")


def check_rule_text(text: str, path: str):
    """Raise InputError (file, line, reason) for anything a rule file may not contain."""
    problem = _problem(text)
    if problem is not None:
        line, reason = problem
        raise InputError(reason, path, f"line {line}")


@lru_cache(maxsize=1024)
def _problem(text: str) -> tuple[int, str] | None:
    stripped = _strip_comments(text)
    for pattern, reason in _FORBIDDEN_TEXT:
        m = pattern.search(stripped)
        if m:
            return _line(stripped, m.start()), reason
    allowed = _public_functions()
    code = _blank_strings(stripped)
    for m in _CALL.finditer(code):
        if m.group(1) not in allowed:
            return _line(code, m.start()), (
                f"@{m.group(1)} is not an @-function (known: {', '.join(sorted(allowed))})")
    return _statement_problem(text)


def _statement_problem(text: str) -> tuple[int, str] | None:
    import clingo.ast

    found: list[tuple[int, str]] = []

    def visit(stm):
        if found:
            return
        kind = stm.ast_type.name
        reason = _FORBIDDEN_STATEMENTS.get(kind)
        if reason is None and kind == "Rule":
            head = stm.head
            reason = _FORBIDDEN_HEADS.get(head.ast_type.name)
            if (reason is None and head.ast_type.name == "Literal"
                    and head.atom.ast_type.name == "BooleanConstant" and not head.atom.value):
                reason = _CONSTRAINT
        if reason is not None:
            found.append((stm.location.begin.line, reason))

    try:
        clingo.ast.parse_string(text, visit, logger=lambda code, msg: None, message_limit=1)
    except RuntimeError:
        return None  # a syntax error: clingo reports it with its place when loading
    return found[0] if found else None


@lru_cache(maxsize=1)
def _public_functions() -> frozenset:
    from .functions import Functions

    return frozenset(name for name in dir(Functions)
                     if not name.startswith("_") and callable(getattr(Functions, name))
                     and name not in ("exhausted",))


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _blank_strings(text: str) -> str:
    """Blank the contents of "strings" (a formula may hold any character), keeping lines."""
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


def _strip_comments(text: str) -> str:
    """Blank out %-comments and %* *% blocks, keeping line numbers (strings kept as-is)."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
        elif c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith("%*", i):
            end = text.find("*%", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == "%":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)
