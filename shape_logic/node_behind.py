"""Several errors that one node's mistake makes, given as that node's one diagnostic.

A node with a wrong attribute can make errors downstream before its own shows: a Concat
along the batch where the channels were meant gives the Convs after it 32 channels for
their 256, and Inception-v2 had four diagnostics at those Convs before the Concat's own
(its inputs' 64, 64, 96 and 32 channels, which a batch concatenation must share). Each
downstream error's core holds the Concat too, and switching the Concat off leaves the
graph with no error at all; switching off any of the Convs leaves the others'. So when
every error's core holds one node that one of the diagnostics names as the error's node,
and switching off that node alone leaves no conflict in the whole graph (the only such
node), that diagnostic stands for them all, with a note of how many more there were.
(diagnose._one_declaration_behind does the same for a declaration shared by every core: an
input declared too wide.) That the others go with the node does not make them its
consequences: a mistake downstream that needs the node's sizes goes with it too, as it
does behind any node in error (look_past.py); it shows once this one is fixed.
"""
from __future__ import annotations

import clingo

from .diagnostics import Diagnostic


# at most this many of the nodes every core holds are tried, the latest first, when no
# diagnostic names one of them (one whole-graph solve each)
MAX_UNNAMED = 16


def one_node_behind(problem, out: list[Diagnostic], offs: list[set]
                    ) -> tuple[list[Diagnostic], set] | None:
    """([the diagnostic], the sources it switches off) when the errors `out` (each with the
    sources `offs` that switch it off: its node's, or its declarations') are all one node's
    doing; else None. One whole-graph solve per candidate node: the nodes every core holds
    that a diagnostic names, else (none of those) the nodes every core holds, the latest
    first, until one leaves no conflict."""
    if len(out) < 2:
        return None
    # (a core carried far, not minimized, lists only its near part: it names no candidate)
    cores = [d for d in out if not d.context] or out
    shared = set.intersection(*({e["name"] for e in d.core if e["kind"] == "node"}
                                for d in cores))
    named = {}
    for diag, off in zip(out, offs):
        if len(off) == 1:
            (source,) = off
            if source.arguments[0].name == "node" and source.arguments[1].string in shared:
                named[source.arguments[1].string] = (diag, set(off))
    behind = [name for name in named if _clears(problem, named[name][1])]
    others = len(out) - 1
    more = f"{others} more error{'s were' if others > 1 else ' was'} found"
    if len(behind) == 1:
        diag, off = named[behind[0]]
        # (what is known: the others go with the node - its consequences, or mistakes it
        # hides, as a node in error hides those behind it: look_past.py; fixing it shows)
        diag.notes.append(f"{more}; with {behind[0]} left out the graph has none "
                          "(fix this one first)")
        return [diag], off
    if behind:
        return None  # (several: no one node is behind them)
    # No diagnostic names it (a Concat's own error can come later than MAX_ERRORS allow):
    # the node where the cores meet last, in the graph's order, that leaves the graph no
    # conflict - the chain before it (the Range, Cos and Sin before a rotary table's Concat)
    # leaves none either, as it gives the node its input. The first diagnostic stands, and
    # points at it.
    order = [n for n in reversed(problem.graph.nodes) if n.name in shared - set(named)]
    node = next((n for n in order[:MAX_UNNAMED] if _clears(problem, {_node_source(n.name)})),
                None)
    if node is None:
        return None
    name, op = node.name, node.op
    out[0].notes.append(f'{more}; with {op} "{name}" left out the graph has none (the '
                        "errors' minimal cores all hold it: it may be the mistake)")
    return [out[0]], {_node_source(name)}


def _clears(problem, off: set) -> bool:
    """Whether the whole graph solves without conflict with `off` switched off."""
    rest, _ = problem.atoms(off=off)
    rest.release_control()
    return not rest.conflicts


def _node_source(name: str) -> clingo.Symbol:
    return clingo.Function("src", [clingo.Function("node"), clingo.String(name),
                                   clingo.Function("all")])
