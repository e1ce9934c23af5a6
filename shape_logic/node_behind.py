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

Errors given without cores (explaining ran away) are pointed at the nodes next to the
conflicts that, left out, leave the graph none (node_behind_unexplained): a heuristic
stated as what it is ("it may be the mistake"), kept honest by three filters.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import clingo

from .describe import subject
from .diagnostics import Diagnostic
from .explain import with_output_claims
from .limits import Abandoned, TimeLimit
from .place_order import places_in_order


# at most this many of the nodes every core holds are tried, the latest first, when no
# diagnostic names one of them (one whole-graph solve each)
MAX_UNNAMED = 16
# an unexplained error points at the nodes next to it whose leaving out clears the graph,
# when there are at most this many, of at most MAX_NEXT_TO tried (a LLaMA block's KV
# cache joined along the head size: the Concat was the 25th of the 44 next to the
# conflicts, behind the rotary table's nodes where they show first)
MAX_NAMED = 4
MAX_NEXT_TO = 48


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
    # (when no core is minimal, each lists its near part only: every node a diagnostic
    # names is a candidate - light Inception-v2's last Concat along the batch was three
    # diagnostics carried far, the Concat's the third, and the parts they list share
    # only a weight's ConstantOfShape and a node before the Concat)
    far = all(d.context for d in out)
    named = {}
    for diag, off in zip(out, offs):
        if len(off) == 1:
            (source,) = off
            if source.arguments[0].name == "node" and (
                    far or source.arguments[1].string in shared):
                named[source.arguments[1].string] = (diag, set(off))
    behind = [name for name in named if graph_clears(problem, named[name][1])]
    more = more_found(len(out) - 1)
    if len(behind) == 1:
        diag, off = named[behind[0]]
        # (what is known: the others go with the node - its consequences, or mistakes it
        # hides, as a node in error hides those behind it: look_past.py; fixing it shows)
        diag.notes.append(f"{more}; with {behind[0]} left out the graph has none "
                          "(fix this one first)")
        problem.suspects = tuple(n for n in problem.graph.nodes if n.name == behind[0])
        return [diag], off
    if behind:
        return None  # (several: no one node is behind them)
    # No diagnostic names it (a Concat's own error can come later than MAX_ERRORS allow):
    # the node where the cores meet last, in the graph's order, that leaves the graph no
    # conflict - the chain before it (the Range, Cos and Sin before a rotary table's Concat)
    # leaves none either, as it gives the node its input. The first diagnostic stands, and
    # points at it.
    order = [n for n in reversed(problem.graph.nodes) if n.name in shared - set(named)]
    node = next((n for n in order[:MAX_UNNAMED] if graph_clears(problem, left_out(problem, n))),
                None)
    if node is None:
        return None
    name, op = node.name, node.op
    out[0].notes.append(f'{more}; with {op} "{name}" left out the graph has none (the '
                        "errors' minimal cores all hold it: it may be the mistake)")
    problem.suspects = (node,)
    return [out[0]], left_out(problem, node)


def more_found(others: int) -> str:
    """The start of the note of a diagnostic that stands for `others` more errors."""
    return f"{others} more error{'s were' if others > 1 else ' was'} found"


def node_behind_unexplained(problem, atoms, out: list[Diagnostic],
                            allowance: int | None) -> list[Diagnostic]:
    """`out`, errors given without their cores (explaining ran past its allowance, or found
    none), as the first of them alone when one to MAX_NAMED nodes next to the conflicts,
    each left out, leave the whole graph without conflict: it points at them. Not tried:
    nodes that pass a shape on (_passing_on); not counted: nodes that clear only as their
    outputs lose their ranks, and nodes after another that clears (_first_ones). A GPT-2
    block's KV cache joined along the heads (Concat axis 1 for 2) made 63 conflicting places from
    the attention's arithmetic on, where the explaining grounding, computing without the
    bindings, ran away: five diagnostics without a core, and a table of sizes the
    colliding values had bound (past_seq = 1, seq = 1). The nodes reading or making the
    conflicts' tensors are tried, the earliest conflict's first, at most MAX_NEXT_TO of
    them, each a whole-graph solve within `allowance` computations (one past it is no
    answer). Sets problem.switched_off when one alone is found (the table then shows the
    graph without it: error_table.py)."""
    if not out:
        return out
    graph = problem.graph
    places = places_in_order(graph, atoms.conflicts, atoms.binds)
    passing = _passing_on(problem, allowance)
    nodes = [n for n in _next_to(graph, places)[:MAX_NEXT_TO] if n.name not in passing]
    problem.sourced_facts  # (built once, before the threads read it)

    def clears(node):
        """(node, the sources that leave it out) if it clears the graph, else None;
        TimeLimit if the time is up."""
        off = left_out(problem, node)
        try:
            # Left out, a node's outputs lose their ranks too, and every tensor after them:
            # a LLaMA block's rotary table (Concat, Cos, Sin) cleared the graph so, where its
            # KV cache was joined along the head size (8 + 8 meeting the queries' 8). Kept at
            # their ranks in the answer, the table's sizes open meet the queries' 8 again:
            # only a node whose sizes alone make the errors clears then.
            if graph_clears(problem, off, allowance) and \
                    graph_clears(problem, off, allowance, _ranks_kept(atoms, node)):
                return node, off
        except Abandoned:
            pass
        except TimeLimit:
            return TimeLimit
        return None

    # two at a time (clingo grounds without Python's lock: narrowing.py's trials do too)
    with ThreadPoolExecutor(2, thread_name_prefix="shape-logic-node-behind") as pool:
        found = list(pool.map(clears, nodes))
    if TimeLimit in found:
        return out
    clearing = [f for f in found if f is not None]
    # (a node after one that clears may clear only because what it reads is left open:
    # the first ones are named, the origins of the sizes that the others pass on)
    clearing = _first_ones(graph, clearing)
    if not clearing or len(clearing) > MAX_NAMED:
        return out
    others = max(len(places), len(out)) - 1
    more = f"{more_found(others)}; " if others else ""
    names = ", ".join(f'{n.op} "{n.name}"' for n, _ in clearing)
    problem.suspects = tuple(n for n, _ in clearing)
    out[0].notes = [n for n in out[0].notes if not n.startswith("more conflicts remain")]
    if len(clearing) == 1:
        out[0].notes.append(f"{more}with {names} left out the graph has none (it may be "
                            "the mistake)")
        problem.switched_off = frozenset(clearing[0][1])
    else:  # (one side of a collision left out clears it as well as the node that made it)
        out[0].notes.append(f"{more}with any one of {names} left out the graph has none "
                            "(one of them may be the mistake)")
    return [out[0]]


def _first_ones(graph, clearing: list) -> list:
    """The (node, sources) of `clearing` whose node comes after no other one's. A GPT-2
    block's KV cache joined along the batch cleared with 19 nodes next to its conflicts
    left out: the Concat, and the attention's and causal mask's nodes after it, which only
    carry its 2*batch on to the merge of the heads (and the query's Transpose and the
    values' Concat, the other sides of that merge's count)."""
    producer = graph.producer()
    names = {n.name for n, _ in clearing}
    after: set = set()  # the clearing nodes that some other one comes before
    for node, _ in clearing:
        if graph.ancestors([node], producer=producer) & names - {node.name}:
            after.add(node.name)
    return [(n, off) for n, off in clearing if n.name not in after]


def _next_to(graph, places) -> list:
    """The nodes at the conflicting `places` (in their order): a node's own place, or those
    reading a place's tensor, then the one making it."""
    producer, readers = graph.producer(), graph.readers()
    by_name = {n.name: n for n in graph.nodes}
    out: list = []
    for place in places:
        tensor, node = subject(place)
        near = [by_name[node]] if node in by_name else \
            readers.get(tensor, []) + ([producer[tensor]] if tensor in producer else [])
        out += [n for n in near if n not in out]
    return out


def left_out(problem, node) -> set:
    """The sources that leave `node` out: its own, and the declarations of its outputs (a
    declared output made by the node alone says what the node would: left with the
    declaration and no node, a KV cache's present_k [D0, 4, L, 8] met the batch of the
    graph's queries as max(D0, batch), whose floors ran the grounding away)."""
    return set(with_output_claims(problem.graph, {node_source(node.name)}))


# the nodes whose first output the rules give an input's shape (a unary operator's, a
# broadcast of a tensor with itself): asked of the program where no error is explained
PASSES_ON = ("#show passes_on/1.\n"
             "passes_on(N) :- output(N, 0, Y), input(N, _, X), same_shape(X, Y).\n"
             "passes_on(N) :- output(N, 0, Y), input(N, _, X), same_shape(Y, X).\n")


def _passing_on(problem, allowance) -> set:
    """The nodes that make no size of their own (PASSES_ON): no mistake of sizes, however
    the graph clears with one left out (x [3] through 20 Relus to a y declared [4]: any
    Relu, left out, cuts the two apart)."""
    try:
        atoms, _ = problem.atoms(allowance=allowance, facts=PASSES_ON)
    except (Abandoned, TimeLimit):
        return set()
    atoms.release_control()
    return atoms.passes_on


def _ranks_kept(atoms, node) -> str:
    """Facts of the ranks the answer `atoms` gives `node`'s outputs (one rank each)."""
    return "".join(f"rank({clingo.String(t)},{next(iter(rs))})." for t in node.outputs
                   if t and len(rs := atoms.rank.get(t, ())) == 1)


def graph_clears(problem, off: set, allowance: int | None = None, facts: str = "") -> bool:
    """Whether the whole graph solves without conflict with `off` switched off (within
    `allowance` computations: limits.Abandoned past them), and `facts` added."""
    rest, _ = problem.atoms(off=off, allowance=allowance, facts=facts)
    rest.release_control()
    return not rest.conflicts


def node_source(name: str) -> clingo.Symbol:
    return clingo.Function("src", [clingo.Function("node"), clingo.String(name),
                                   clingo.Function("all")])
