"""A private pyDatalog knowledge base.

pyDatalog keeps one knowledge base per thread; each `KnowledgeBase` owns its own and makes
it current around every call, so two analyses never see each other's facts. Facts go
straight into the engine (`pyEngine.assert_`): the parser path (`assert_fact`) costs
~0.4 ms a fact, the engine ~30 us. Queries are answered by the engine too.
"""
from __future__ import annotations

from pyDatalog import Logic, pyDatalog, pyEngine


class KnowledgeBase:
    def __init__(self, rules: str):
        Logic()  # a fresh knowledge base for this thread ...
        self.logic = Logic(True)  # ... kept, to be made current again later
        pyDatalog.load(rules)

    def _activate(self):
        Logic(self.logic)

    def facts(self, predicate: str, rows) -> None:
        """Assert predicate(*row) for each row (a tuple of strings or numbers)."""
        self._activate()
        for row in rows:
            terms = [pyEngine.Term_of(v) for v in row]
            pyEngine.assert_(pyEngine.Clause(pyEngine.Literal(predicate, terms), []))

    def ask(self, predicate: str, *args) -> list[tuple]:
        """The rows of `predicate` matching `args`; None is a free argument."""
        self._activate()
        terms = [pyEngine.Var(f"V{i}") if a is None else pyEngine.Term_of(a)
                 for i, a in enumerate(args)]
        result = pyEngine.Literal(predicate, terms).ask()
        if result is True:
            return [tuple(args)]
        return list(result or [])

    def column(self, predicate: str, *args) -> set:
        """The values of the one free argument of `predicate(args)`."""
        free = [i for i, a in enumerate(args) if a is None]
        assert len(free) == 1, "column() needs exactly one free argument"
        return {row[free[0]] for row in self.ask(predicate, *args)}
