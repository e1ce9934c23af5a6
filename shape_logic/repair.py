"""A repair hint for a node named as the mistake: another value of one of its attributes
that makes the whole graph solve.

Explaining names the node an error is most likely about (its own error, the one node every
error's core holds, or the nodes next to the conflicts whose leaving out clears the graph:
node_behind.py), but leaving a node out says nothing of what it should have done. A few
attributes are what a slip gets wrong most often, and have few other values: an axis (a
KV cache's keys joined along the batch or the heads for the sequence, an inception block's
Concat along the batch for the channels), a flag (Gemm's transB for a weight stored
[out, in], a reduction's keepdims), a Transpose's permutation (two entries swapped), a
convolution's pads (a residual block's 3x3 without padding=1: the pads that keep its
sizes). Each other value is tried in a solve of the whole graph with that node changed,
and one that leaves no conflict is offered: `help: if Concat "c" had axis = 2, the graph
would solve`. A suggestion, shown as one: each is checked by a solve, and offered only if
it then requires nothing of the inputs' sizes that the graph without the node does not (a
change that clears the graph for one input size is no repair). Where no value, or too
many, clear the graph, there is no hint, nor an axis where every other axis clears it
(the node's own is then out of range, as its error says). Where two nodes are named, the
one whose change clears the graph tells them apart: leaving out either of a KV cache's
two Concats clears it, changing only the keys' one does; the table then shows the graph
without that one.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from .error_table import answer_without_conflict
from .requirements import input_requirements
from .limits import Abandoned, TimeLimit
from .shapes import has_fresh_name

MAX_TRIES = 8  # whole-graph solves per diagnosis, at most
MAX_SHOWN = 2  # a hint names at most this many (node, attribute) changes


def add_repair_hint(problem, atoms, diagnostics, allowance: int | None = None) -> None:
    """The hint, if any, as the last note of the one diagnostic `diagnostics` hold (none
    where there are several: one change cannot clear independent errors): for the nodes
    explaining named as the mistake (problem.suspects, else the one node whose switching
    off cleared the graph), else for the other nodes of its core, nearest the conflict
    first (a Transpose's permutation is the mistake, the MatMul after it the error)."""
    if len(diagnostics) != 1:
        return
    graph = problem.graph
    named = [n.name for n in problem.suspects]
    if not named and problem.switched_off:
        off = [s.arguments[1].string for s in problem.switched_off
               if s.arguments[0].name == "node"]
        named = off if len(off) == 1 else []
    in_core = {e["name"] for e in diagnostics[0].core if e["kind"] == "node"}
    rest = [n.name for n in reversed(graph.nodes) if n.name in in_core and n.name not in named]
    by_name = {n.name: n for n in graph.nodes}
    tries = [MAX_TRIES]
    for group in (named, rest):
        found = attribute_hint(problem, atoms, [by_name[x] for x in group if x in by_name],
                               allowance, tries)
        if found is not None:
            break
    else:
        return
    hint, fixed = found
    diagnostics[0].notes.append(hint)
    if problem.switched_off is None and len(fixed) == 1:
        # (one of the nodes named tells them apart: the table shows the graph without it,
        # as where it alone had been named, not the sizes the collision bound)
        from .node_behind import left_out

        problem.switched_off = frozenset(left_out(problem, fixed[0]))


def attribute_hint(problem, atoms, nodes, allowance: int | None = None,
                   tries: list | None = None) -> tuple | None:
    """(the hint, the nodes it names) for `nodes` (in order), or None. `atoms`: the answer
    with the errors (its ranks size the axes tried); each try is a whole-graph solve within
    `allowance` computations, at most tries[0] of them (counted down)."""
    tries = [MAX_TRIES] if tries is None else tries
    fixes = []  # (node, the (attribute, value) changes that clear the graph)
    for node in nodes:
        changes = alternatives(node, atoms)
        if not changes or len(changes) > tries[0]:
            continue
        tries[0] -= len(changes)
        try:
            cleared = _clearing(problem, node, changes, allowance)
        except TimeLimit:
            tries[0] = 0
            return None
        # (every other axis clearing it says only that the node's own is out of range,
        # which its error says: a Gather along axis 2 of a matrix)
        axes = [c for c in changes if c[0] == "axis"]
        if len(axes) > 1 and all(c in cleared for c in axes):
            cleared = [c for c in cleared if c[0] != "axis"]
        if cleared:
            fixes.append((node, cleared))
    if not fixes or sum(len(cleared) for _, cleared in fixes) > MAX_SHOWN:
        return None
    text = " or ".join(f'{node.op} "{node.name}" had {name} = {_value_text(v)}'
                       for node, cleared in fixes for name, v in cleared)
    return f"help: if {text}, the graph would solve", [node for node, _ in fixes]


# the attributes a slip gets wrong whose other values are few: a flag's other value where
# the operator has the flag (its default when not given)
FLAGS = {"transA": (("Gemm",), 0), "transB": (("Gemm",), 0),
         "keepdims": (("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                       "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
                       "ReduceSumSquare", "ArgMax", "ArgMin"), 1)}


def alternatives(node, atoms) -> list[tuple]:
    """The (attribute, value) changes of `node` tried: each other axis its first input's
    rank allows (where it has an integer axis and the answer gives that input one rank),
    its flags' other values (FLAGS), a Transpose's permutation with two entries swapped,
    and a convolution's or pooling's pads that keep its sizes (_same_pads)."""
    out = []
    axis = node.attrs.get("axis")
    ranks = atoms.rank.get(node.inputs[0], ()) if node.inputs and node.inputs[0] else ()
    if isinstance(axis, int) and not isinstance(axis, bool) and len(ranks) == 1:
        (rank,) = ranks
        own = axis + rank if axis < 0 else axis
        out += [("axis", a) for a in range(rank) if a != own]
    for name, (ops, default) in FLAGS.items():
        if node.op in ops:
            out.append((name, 1 - int(node.attrs.get(name, default))))
    perm = node.attrs.get("perm")
    if node.op == "Transpose" and isinstance(perm, (list, tuple)) and len(perm) <= 4:
        perm = [int(p) for p in perm]
        for i in range(len(perm)):
            for j in range(i + 1, len(perm)):
                swapped = list(perm)
                swapped[i], swapped[j] = perm[j], perm[i]
                out.append(("perm", swapped))
    pads = _same_pads(node, atoms)
    if pads is not None:
        out.append(("pads", pads))
    return out


def _same_pads(node, atoms) -> list[int] | None:
    """The pads that keep a convolution's or pooling's spatial sizes at stride 1, where its
    own differ (a 3x3 convolution of a residual block without padding=1: [h - 2] meets the
    skip's [h] at the Add), its kernel known and odd (dilated) on every axis, no auto_pad."""
    if node.op not in ("Conv", "MaxPool", "AveragePool", "LpPool") or \
            node.attrs.get("auto_pad", "NOTSET") not in ("NOTSET", b"NOTSET"):
        return None
    kernel = node.attrs.get("kernel_shape")
    if kernel is None and node.op == "Conv" and len(node.inputs) > 1:
        rank = atoms.rank.get(node.inputs[1], ())
        sizes = [atoms.dims.get((node.inputs[1], i), ()) for i in range(2, max(rank, default=0))]
        if len(rank) != 1 or not all(len(d) == 1 and next(iter(d)).is_int for d in sizes):
            return None
        kernel = [next(iter(d)).value for d in sizes]
    if not kernel:
        return None
    dilations = node.attrs.get("dilations") or [1] * len(kernel)
    spans = [d * (k - 1) for k, d in zip(kernel, dilations)]
    if any(span % 2 for span in spans):
        return None
    pads = [span // 2 for span in spans] * 2
    return pads if pads != list(node.attrs.get("pads") or [0] * len(pads)) else None


def _value_text(value) -> str:
    return "[" + ", ".join(map(str, value)) + "]" if isinstance(value, list) else str(value)


def _clearing(problem, node, changes, allowance) -> list[tuple]:
    """The changes among `changes` with which the whole graph solves without conflict and
    requires of its inputs' sizes nothing that it does not with `node` left out (a Split
    of [n, 96] by sizes [32, 32, 16] along the rows clears only where n = 80: no repair).
    Solved two at a time (clingo grounds without Python's lock, as node_behind's are)."""
    from .node_behind import left_out

    with ThreadPoolExecutor(2, thread_name_prefix="shape-logic-repair") as pool:
        found = list(pool.map(lambda change: _requirements(
            _changed(problem, node, *change), allowance), changes))
    out, baseline = [], None
    for change, requires in zip(changes, found):
        if requires is None:
            continue
        if requires and baseline is None:
            baseline = _requirements(replace(problem, off=frozenset(left_out(problem, node))),
                                     allowance) or []
        if set(requires) <= set(baseline or ()):
            out.append(change)
    return out


def _changed(problem, node, name: str, value):
    """The problem of the graph with `node`'s attribute `name` set to `value`."""
    graph = problem.graph
    changed = replace(node, attrs={**node.attrs, name: value})
    nodes = [changed if n is node else n for n in graph.nodes]
    return replace(problem, graph=replace(graph, nodes=nodes), facts=None, _sourced=None,
                   timings={}, floors={}, ceilings={}, floors_everywhere=False, prefix={},
                   distrust=frozenset(), off=frozenset(), switched_off=None, suspects=())


def _requirements(problem, allowance) -> list[str] | None:
    """What the whole graph of `problem` requires of its inputs' sizes (as narrowing
    states it, and the sizes it gives an input's axis declared `?`), or None when it
    conflicts (or its solve runs past `allowance`)."""
    try:
        decoded = answer_without_conflict(problem, allowance)
    except Abandoned:
        return None
    if decoded is None:
        return None
    out = input_requirements(problem.graph, decoded)
    for t, info in problem.graph.inputs.items():
        got = decoded.shapes.get(t)
        if info.shape is None or info.shape.dims is None or got is None or got.dims is None:
            continue
        # (x [?, 2] joined with itself along the columns meets a [3, 2]: its ? must be 3)
        out += [f"{t} axis {i} = {g}" for i, (d, g) in enumerate(zip(info.shape.dims, got.dims))
                if has_fresh_name(d) and not has_fresh_name(g)]
    return out
