"""Shape errors explained: place, colliding values, the minimal core, and a repair hint.

For each conflicting place (earliest in the graph first) a minimal core is
found (explain.py) and described (describe.py); places the core also explains
are not reported again. Independent mistakes thus give separate diagnostics.
Graphs over LOCAL_FROM_NODES nodes are explained from the smallest neighbourhood
of the place where the conflict shows (neighbourhood.py), not from the whole graph.
"""
from __future__ import annotations

from .decode import decode
from .describe import core_entries, declared_info, describe, subject
from .diagnostics import Diagnostic, _describe, diagnostics_from_conflicts
from .explain import CoreFinder, claim_sources, distances_from, with_output_claims
from .limits import Abandoned
from .look_past import more_errors
from .node_behind import graph_clears, more_found, node_behind_unexplained, one_node_behind
from .own_reason import as_own_reason
from .place_order import in_order, places_in_order
from .scopes import other_branch

MAX_ERRORS = 5
LOCAL_FROM_NODES = 200  # larger graphs are explained from neighbourhoods of the conflict


def diagnose(problem, atoms, decoded=None, hidden=True,
             allowance: int | None = None) -> list[Diagnostic]:
    """`hidden`: the solve that found `atoms` may have stopped short of some conflicts
    (arithmetic stops once values collide, asp/functions.py). Each grounding with sources
    as assumptions may make `allowance` computations (limits.Abandoned past them).
    A conflict the solve found stands even where no core is found for it (the program
    with sources as assumptions may derive less: a rule on what a node surely lacks):
    then it is reported without one, as a solve without explaining reports it.
    Sets problem.switched_off: the sources whose switching off leaves no conflict (each
    error's node, or its declarations: describe.py), or None when some error was not
    explained (the error's table: error_table.py)."""
    problem.switched_off = None
    out = _diagnose(problem, atoms, decoded, hidden, allowance)
    if not out and atoms.conflicts:
        problem.switched_off = None
        out = node_behind_unexplained(problem, atoms, unexplained(problem.graph, atoms, NO_CORE),
                                      allowance)
    return out


def unexplained(graph, atoms, note: str | None) -> list[Diagnostic]:
    """The errors as the solve found them, without cores (`note` says why, if given): the
    places earliest in the graph first, at most MAX_ERRORS (a rank clash at an input
    reaches every tensor after it: a BERT export's input_ids declared [batch, seq, 2] was
    272 diagnostics)."""
    rank = {p: i for i, p in enumerate(places_in_order(graph, atoms.conflicts, atoms.binds))}
    out = diagnostics_from_conflicts(graph, atoms, order=lambda p: rank.get(p, len(rank)))
    rest = out[MAX_ERRORS:]
    out = out[:MAX_ERRORS]
    for d in out:
        if note:
            d.notes.append(note)
    note_remaining(out, rest)
    return out


NO_CORE = ("not explained: no set of nodes and declarations was found that forces this "
           "error (it stands all the same)")


def _diagnose(problem, atoms, decoded, hidden, allowance) -> list[Diagnostic]:
    from .diagnose_local import diagnose_locally

    own = _without_claims(problem)
    if len(problem.graph.nodes) > LOCAL_FROM_NODES:
        if decoded is None:
            decoded = decode(problem.graph, atoms)
        found = diagnose_locally(problem, atoms, decoded, hidden, allowance, own)
        if found is not None:
            return found
    try:
        return _diagnose_whole(problem, atoms, allowance, own)
    except Abandoned:
        # The whole graph with its sources as assumptions computes without the bindings,
        # and both colliding values reach everything: a GPT-2 block's output declared
        # [batch, seq, 33] for its 32 ran past the allowance (21 places listed, none
        # explained). A neighbourhood of each conflict computes far less (0.26 s).
        if len(problem.graph.nodes) > LOCAL_FROM_NODES:
            raise  # (the neighbourhoods were tried first)
        if decoded is None:
            decoded = decode(problem.graph, atoms)
        found = diagnose_locally(problem, atoms, decoded, hidden, allowance, own)
        if found is None:
            raise
        return found


def _diagnose_whole(problem, atoms, allowance, own) -> list[Diagnostic]:
    """The conflicts explained with the whole graph: the graph's own errors first by a
    core finder without the claims, if that explains every error; else one core finder
    with the claims, looking at the graph's own errors first all the same."""
    if own is not None and own[1].conflicts:
        explained = _own_errors(problem, own, allowance)
        if explained is not None:
            return explained
    graph = problem.graph
    places = places_in_order(graph, atoms.conflicts, atoms.binds)
    finder = CoreFinder(problem, places, allowance)
    out: list[Diagnostic] = []
    found: list = []  # (place, core) of each diagnostic
    offs: list = []  # the sources that switch each one's error off
    active = finder.sources  # shrinks as found errors are blocked
    # The graph's own errors first, with its inputs' declarations but no output's or
    # annotation's: a declared output that agrees with the graph is then no part of an
    # error that is an input's (past_k [b, 4, p, 16] against the graph's 8 and present_k
    # declared [.., 8]: the smallest core blamed present_k, and the Concat's error with
    # the graph's 8 was a second diagnostic, for one mistake). The claims' errors follow.
    claims = {s for s in active if s.arguments[0].name in ("ann", "output")}
    own_places = in_order(places, finder.conflict_places(active - claims)) if claims else []
    if own_places:
        left, remaining = _explain_in_turn(problem, atoms, finder, active - claims,
                                           own_places, out, found, offs)
        active = (active & claims) | left  # (the own errors' sources blocked)
    if not out or not remaining:
        remaining = in_order(places, finder.conflict_places(active)) if out else places
        active, remaining = _explain_in_turn(problem, atoms, finder, active, remaining,
                                             out, found, offs)
    out = _finish(problem, finder, out, found, offs, active, remaining)
    if problem.switched_off and len(out) < MAX_ERRORS:  # (out of sight: look_past.py)
        more, more_off = more_errors(problem, atoms, None,
                                     set(problem.switched_off), MAX_ERRORS - len(out),
                                     allowance)
        out += more
        problem.switched_off |= more_off
    return out


def _own_errors(problem, own, allowance) -> list[Diagnostic] | None:
    """The diagnostics of the graph's own errors (`own`: _without_claims's) explained
    without the claims, if they are all the errors (with them off, the claims agree);
    else None. In a grounding with the claims, present_k's declared 2 heads met past_k's 4
    before the graph's 2 reached the Concat, the arithmetic stopped (asp/functions.py),
    and without the claims that grounding showed no conflict at all: present_k's
    declaration was blamed. (Where the claims still disagree, the errors are explained
    with them: HF GPT-2's past_k0 with 5 heads for its 4 was, without them, the head
    split's Reshape's error, 5 heads coming back from past_k0, then present_k0's.)"""
    own_problem, own_atoms, _ = own
    places = places_in_order(problem.graph, own_atoms.conflicts, own_atoms.binds)
    finder = CoreFinder(own_problem, places, allowance)
    out: list[Diagnostic] = []
    found: list = []
    offs: list = []
    left, remaining = _explain_in_turn(own_problem, own_atoms, finder, finder.sources,
                                       places, out, found, offs)
    if remaining:  # (too many, or one not explained)
        one = _one_declaration_behind(problem, finder, found) if len(out) > 1 else None
        if one is None:
            return None
        out, left = one
    # with them off, do the claims agree? (a solve, not the explaining program with the
    # claims: a GPT-2 block's x declared f16 ran past the allowance there)
    off = finder.sources - left
    advice = frozenset() if graph_clears(problem, with_output_claims(problem.graph, off)) \
        else _advice_set_aside(problem, off, found)
    if advice is None:
        return None
    out = _finish(problem, finder, out, found, offs, left, [])
    if advice and out:
        out[0].notes.append(ADVICE_SET_ASIDE)
        if problem.switched_off is not None:  # (the table: the graph without them too)
            problem.switched_off |= advice
    return out


ADVICE_SET_ASIDE = ("some of the model's declared outputs disagree with the graph as well: "
                    "set aside here, as a solve of the fixed graph sets them aside with a "
                    "warning (a declared output is advice: exporters declare the sizes they "
                    "traced)")


def _advice_set_aside(problem, off, found) -> frozenset | None:
    """Where the claims still disagree with the own errors switched off (`off`): for an ONNX
    model whose declared outputs disagree even with every node of the errors' cores
    (`found`) left out, and agree once switched off too, their sources, set aside as a
    solve of the fixed graph sets them aside (narrowing.py); else None (DESIGN.md: a LLaMA
    cache output disagrees only through the Concat in the error's core)."""
    graph = problem.graph
    if not graph.from_onnx:
        return None
    cores = {s for _, core in found for s in core if s.arguments[0].name == "node"}
    if graph_clears(problem, with_output_claims(graph, off | cores)):
        return None
    outputs = frozenset(s for s in claim_sources(graph) if s.arguments[0].name == "output")
    return outputs if graph_clears(problem, with_output_claims(graph, off) | outputs) else None


def _finish(problem, finder, out, found, offs, active, remaining) -> list[Diagnostic]:
    """The diagnostics `out` (one, if one declaration or one node is behind them all), the
    note of the places `remaining`, and problem.switched_off when none remains."""
    # (past MAX_ERRORS too: the declaration switched off leaves no conflict at all)
    one = _one_declaration_behind(problem, finder, found) if len(out) > 1 else None
    if one is not None:
        out, active = one
        remaining = []
    elif (node := one_node_behind(problem, out, offs)) is not None:  # (node_behind.py)
        out, active = node[0], finder.sources - node[1]
        remaining = []
    elif (values := _values_behind(problem, finder, found)) is not None:
        out[0].notes.append(values[1])
        out, active = [out[0]], finder.sources - {values[0]}
        remaining = []
    note_remaining(out, remaining)
    if not remaining:
        problem.switched_off = frozenset(finder.sources - active)
    return out


def _without_claims(problem):
    """(the problem with its claims - declared outputs, annotations - switched off, its
    answer, its elements' values: answer_set.grounded_values), or None when it has none.
    Its conflicts are the graph's own errors; without them, its shapes are what the graph
    gives the claims (sound context for a neighbourhood: fewer sources derive less, the
    program being monotone)."""
    from dataclasses import replace

    graph = problem.graph
    claims = claim_sources(graph)
    if not claims:
        return None
    own = replace(problem, off=problem.off | claims)
    atoms, _ = own.atoms()
    values = atoms.value_loader() if atoms.value_loader is not None else {}
    atoms.release_control()
    return own, atoms, values


def _explain_in_turn(problem, atoms, finder, sources, remaining, out, found, offs):
    """The `remaining` places explained one at a time by `finder` with `sources` on, each
    error's sources blocked before the next, into `out`, `found` (place, core) and `offs`
    (the sources blocked), until none remain or MAX_ERRORS are out: (the sources left on,
    the places remaining)."""
    graph = problem.graph
    order = list(remaining)
    while remaining and len(out) < MAX_ERRORS:
        place = remaining[0]
        tensor, node = subject(place)
        core, minimal = finder.minimal_core(place, distances_from(graph, tensor, node), sources)
        if core is None:
            break
        place, core, minimal = as_own_reason(finder, graph, place, core, minimal, remaining)
        sub_atoms = finder.view(core, tensors_near(graph, core))
        diag, blocked = describe(problem, place, core, sub_atoms, finder, minimal)
        blocked |= with_other_branch(graph, atoms, place, diag, finder, sources)
        sources = sources - blocked
        out.append(diag)
        found.append((place, core))
        offs.append(set(blocked))
        # with the errors found so far blocked, which places still conflict?
        remaining = in_order(order, finder.conflict_places(sources))
    return sources, remaining


def _one_declaration_behind(problem, finder, found):
    """([the diagnostic], the sources left on) when every error found shares one input's or
    initializer's declaration, the only one whose switching off leaves no conflict at all:
    a GPT-2 block's input declared [batch, seq, 64] for its 32 was three errors (its two
    LayerNorms and the residual Add), one mistake. Else None. (Only where two or more
    errors were found: a single one names its node, which a residual block missing its
    downsample needs - its input switched off, the graph solves too.)"""
    graph = problem.graph
    kinds = {place.name for place, _ in found}
    if kinds <= {"dim", "rank"}:
        part = "dims"
    elif kinds == {"dtype"}:
        part = "dtype"
    else:
        return None  # (errors of shapes, or of dtypes, not both nor others)

    def key(s):
        return s.arguments[0].name, s.arguments[1].string

    shared = set.intersection(*({key(s) for s in core if key(s)[0] in ("input", "init")}
                                for _, core in found))
    # (an initializer whose values every core holds is read for them: its declared dims
    # are no mistake of their own - without them its values are unknown too, and two
    # Reshapes to [-1, 64] for 32 blamed `hidden` as "declared [2] but the graph gives
    # [?]"; _values_behind looks at such values)
    shared -= {key(s) for s in _values_in_every_core(found)}
    order = {t: i for i, t in enumerate(graph.tensors())}
    behind = []
    for kind, name in sorted(shared, key=lambda kn: order.get(kn[1], len(order))):
        # (an initializer's data is no declaration: without its values the Reshapes that
        # read a shape tensor know nothing, and a KV cache's Concat along the heads had
        # `heads` [0, 0, 4, 8] blamed as "declared [4] but the graph gives [4]")
        parts = {s for s in finder.sources
                 if key(s) == (kind, name) and s.arguments[2].name != "data"}
        alone = {s for s in parts if s.arguments[2].name == part}
        # (its dims, or dtype, alone when they are the error: the table keeps the rest)
        for off in ([alone] if alone else []) + [parts]:
            if not finder.conflict_places(finder.sources - off):
                if part == "dtype" or _given_otherwise(graph, finder, finder.sources - off,
                                                       kind, name):
                    behind.append((kind, name, off))
                break
    if len(behind) != 1:
        return None
    kind, name, parts = behind[0]
    place, first = found[0]
    core = set().union(*(core for _, core in found))  # (each minimal: the errors' union)
    sub_atoms = finder.view(first, tensors_near(graph, first))  # (the first's values)
    diag, _ = describe(problem, place, core, sub_atoms, finder, blame=(kind, name))
    return [diag], finder.sources - parts


def _given_otherwise(graph, finder, active, kind, name) -> bool:
    """Whether, with `active` sources on (a declaration of `name` off), the graph gives
    `name` a size of its own that the declaration contradicts: another rank, or another
    integer at an axis (not 0; an expression is a requirement on the inputs' sizes, not a
    contradiction). Without that the declaration is no mistake to name - the graph leaves
    the axis open, and an open axis absorbs any difference: a ViT's class token joined
    along the features, 32 + 32 for its LayerNorm's 32, blamed the token `cls` [1, 1, 32]
    as "declared" (without it, its last axis open fits as 0)."""
    info = declared_info(graph, kind, name)
    dims = info.shape.dims if info is not None and info.shape is not None else None
    got = decode(graph, finder.view(active, [name])).shapes.get(name)
    if dims is None or got is None or got.dims is None:
        return False
    if len(got.dims) != len(dims):
        return True
    return any(g.is_int and g.value != 0 and str(g) != str(d) for g, d in zip(got.dims, dims))


def _values_in_every_core(found) -> set:
    """The sources of the initializers' values that every core of `found` holds."""
    return set.intersection(*({s for s in core if s.arguments[0].name == "init"
                               and s.arguments[2].name == "data"} for _, core in found))


def _values_behind(problem, finder, found):
    """(the source of an initializer's values, the note for the first error) when the
    errors found share no node in their cores but all hold those values, and without them
    the graph has no conflict; else None. An HF GPT-2's six Reshapes to [-1, hidden] read
    one initializer: made [-1, 64] for 32, it was five errors at five Gemms, each core a
    Reshape and its Gemm. (Where a node is in every core, the values all its cores read
    are no sign: a KV cache joined along the heads had the heads' Reshape's [0, 0, 4, 8]
    in each, and the Concat was the mistake.)"""
    nodes = [{s for s in core if s.arguments[0].name == "node"} for _, core in found]
    if len(found) < 2 or set.intersection(*nodes):
        return None
    behind = [s for s in _values_in_every_core(found)
              if not finder.conflict_places(finder.sources - {s})]
    if len(behind) != 1:
        return None
    name = behind[0].arguments[1].string
    info = problem.graph.initializers.get(name)  # (its values shown when it has them)
    data = info.data if info is not None else None
    shown = f" {data.tolist()}" if data is not None and data.size <= 8 else ""
    readers = sum(name in n.inputs for n in problem.graph.nodes)
    return behind[0], (f"{more_found(len(found) - 1)}; their cores share no node, and all "
                       f"hold the values of `{name}`{shown}, which {readers} nodes read: "
                       "without them the graph has none (they may be the mistake)")


def with_other_branch(graph, atoms, place, diag, finder, active) -> set:
    """A conflict in a branch of an If that cannot run is half of the error (neither branch
    can, and the If runs: scopes.stuck_ifs). The other branch's conflict is explained too:
    its core joins this one, and a note says why the two make an error. The sources to
    switch off for it (so that it is not reported again)."""
    found = other_branch(atoms, place)
    if found is None:
        return set()
    node, key, other, conflict = found
    tensor, at = subject(conflict.arguments[0])
    core, _ = finder.minimal_core(conflict.arguments[0], distances_from(graph, tensor, at),
                                  active)
    diag.notes.insert(0, f'If "{node}" runs whenever the graph does, and neither of its '
                         f'branches can run with these shapes: not its {key} (this error), nor '
                         f'its {other} ({_describe(*conflict.arguments).message})')
    if not core:
        return set()
    diag.core += [e for e in core_entries(graph, core) if e not in diag.core]
    return {s for s in core if s.arguments[0].name != "ctx"}


def note_remaining(out, remaining):
    if remaining and out:
        out[-1].notes.append(f"more conflicts remain ({len(remaining)} places); "
                             f"fix these first")


# ----- the tensors a core is about

def tensors_near(graph, core: set) -> set[str]:
    """The tensors of the core's nodes and declarations."""
    nodes = {s.arguments[1].string for s in core if s.arguments[0].name == "node"}
    out = {s.arguments[1].string for s in core if s.arguments[0].name != "node"}
    for n in graph.nodes:
        if n.name in nodes:
            out.update(t for t in n.inputs + n.outputs if t)
    return out
