"""solve: graph -> facts -> clingo (core encodings + the rule files of its operators) -> shapes."""
from __future__ import annotations

import time
from typing import Any

import clingo

from .asp.functions import Functions
from .asp.program import available_ops, core_encodings, load_rule_file
from .decode import Atoms, decode
from .diagnostics import diagnostics_from_conflicts
from .errors import InputError
from .facts import graph_facts
from .graph import Graph
from .load import load_graph
from .solution import Solution
from .validate import validate


def elimination_order(graph: Graph):
    """Bind solver-made names first, then annotation names, then input names; then by name."""
    cls = graph.symbol_class

    def key(name: str):
        return (cls.get(name, 2), name)

    return key


def select_rules(graph: Graph, rule_dirs=()) -> list:
    known = available_ops(rule_dirs)
    files = {}
    for node in graph.nodes:
        if node.op not in known:
            raise InputError(f"unknown operator {node.op!r} (no rule file rules/{node.op}.lp; "
                             "see `shape-logic ops`)", graph.path, f"{node.place}.op")
        if node.op not in files:
            files[node.op] = load_rule_file(node.op, known[node.op])
    return list(files.values())


def solve(source: Any, rules=(), timings: bool = False) -> Solution:
    t0 = time.perf_counter()
    graph = load_graph(source)
    validate(graph)
    rule_files = select_rules(graph, rules)
    t1 = time.perf_counter()
    facts = graph_facts(graph)
    t2 = time.perf_counter()
    messages: list[str] = []
    ctl = clingo.Control(["--models=1"], logger=lambda code, msg: messages.append(msg),
                         message_limit=1000)
    funcs = Functions(elimination_order(graph))
    try:
        for path in core_encodings():
            ctl.load(str(path))
        for rf in rule_files:
            ctl.load(str(rf.path))
        ctl.add("base", [], facts)
        ctl.add("base", [], "act(S) :- source(S).")
    except RuntimeError:
        raise _program_error(messages, rule_files)
    t3 = time.perf_counter()
    try:
        ctl.ground([("base", [])], context=funcs)
    except RuntimeError:
        raise _program_error(messages, rule_files)
    t4 = time.perf_counter()
    symbols: list[clingo.Symbol] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            symbols = model.symbols(shown=True)
    t5 = time.perf_counter()
    atoms = Atoms.read(symbols)
    decoded = decode(graph, atoms)
    diags = diagnostics_from_conflicts(graph, atoms)
    t6 = time.perf_counter()
    warnings = [f"arithmetic gave up: {f}" for f in funcs.failures[:5]]
    sol = Solution(graph, decoded, diags, warnings)
    sol.timings = {"load": t1 - t0, "facts": t2 - t1, "parse": t3 - t2, "ground": t4 - t3,
                   "solve": t5 - t4, "decode": t6 - t5}
    return sol


def _program_error(messages: list[str], rule_files) -> InputError:
    """A clingo error in a rule file: one line with the file and line."""
    for msg in messages:
        if "error" in msg:
            first = msg.strip().splitlines()[0]
            loc, _, reason = first.partition(": error: ")
            path, _, rest = loc.partition(":")
            line = rest.split(":")[0] if rest else ""
            return InputError(reason or first, path, f"line {line}" if line else None)
    return InputError("; ".join(m.strip() for m in messages) or "clingo failed")
