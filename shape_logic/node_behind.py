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

from .diagnostics import Diagnostic


def one_node_behind(problem, out: list[Diagnostic], offs: list[set]
                    ) -> tuple[list[Diagnostic], set] | None:
    """([the diagnostic], the sources it switches off) when the errors `out` (each with the
    sources `offs` that switch it off: its node's, or its declarations') are all one node's
    doing; else None. One whole-graph solve per candidate node (few: the nodes every core
    holds that a diagnostic names)."""
    if len(out) < 2:
        return None
    shared = set.intersection(*({e["name"] for e in d.core if e["kind"] == "node"}
                                for d in out))
    behind = []
    for diag, off in zip(out, offs):
        if len(off) != 1:
            continue
        (source,) = off
        if source.arguments[0].name != "node" or source.arguments[1].string not in shared:
            continue
        rest, _ = problem.atoms(off=off)
        rest.release_control()
        if not rest.conflicts:
            behind.append((diag, off))
    if len(behind) != 1:
        return None
    diag, off = behind[0]
    others = len(out) - 1
    # (what is known: the others go with the node - its consequences, or mistakes it hides,
    # as a node in error hides those behind it: look_past.py; fixing it shows which)
    diag.notes.append(f"{others} more error{'s were' if others > 1 else ' was'} found; with "
                      f"{next(iter(off)).arguments[1].string} left out the graph has none "
                      "(fix this one first)")
    return [diag], set(off)
