"""Loop-carried values that keep their shape, proven by induction (rules/Loop.lp).

A carried value may change its shape from one iteration to the next, so Loop.lp solves the
body for an input of any shape, and shares one shape between the initial value, the body's
input and output and the final value only when equal-shape edges lead from the body's input
to its output. A tf2onnx LSTM's state goes through a MatMul and a masked select broadcast
against [b, 1]: no such chain, and its final state kept no size.

Induction shows more: if the body, given an input of the initial value's shape, gives an
output of that shape, every iteration's input has it (the first one's is the initial value).
So a trial solve assumes it (`loop_assumed(N, K)`: the body's input gets the initial value's
shape, as an invariant value's does) and reads the body's output; where every assumed value's
output has its input's shape (each axis the same expression, or the same fresh name: equal
axes), the values are invariant (`loop_kept(N, K)`), for the graph's solve and every later
one. A trial that fails for some value is tried again without it.

What the trial derives must rest on the assumption about the body's input alone, not on
what follows from the final value: the loop's outputs have the initial value's shape only
if the values are invariant, and were the trial to let the graph downstream bind the initial
value's sizes through them (a weight's size met after the loop), an output could match its
input only under that binding. So the trial solves the loop and its ancestors only (the
nodes that make its inputs and what its body reads around it): nothing reads its outputs.
Loops are proven one at a time in the graph's order, those before with what was proven.

Counters the same way (Loop.lp's loop_counter_assumed, loop_counter): a carried integer
scalar of a loop that its condition stops (tf2onnx's RNNs: `t + 1 < T`) is assumed to hold
its initial value plus the iteration number in the iteration at hand; where the body's
output is then the input plus 1, it does in every iteration, and Loop.lp counts the
iterations from the condition (the scan outputs' length).
"""
from __future__ import annotations

from dataclasses import replace

import clingo

from .asp.terms import quote, symbol_to_expr
from .decode import decode
from .shapes import has_fresh_name

# trials of one loop: a value that fails is dropped and the rest tried again
MAX_TRIALS = 3


def with_invariant_loops(problem, atoms, funcs, decoded, values: dict) -> tuple:
    """(atoms, funcs, decoded) of the graph's solve, solved again with the carried values
    proven to keep their shape or to count the iterations (problem.loop_facts, for every
    later solve too) if any. `values`: loop_values of the solve."""
    if atoms.conflicts or not any(n.op == "Loop" for n in problem.graph.nodes):
        return atoms, funcs, decoded
    problem.loop_facts = proven_invariant(problem, decoded, values)
    if not problem.loop_facts:
        return atoms, funcs, decoded
    atoms.release_control()
    atoms, funcs = problem.atoms()
    return atoms, funcs, decode(problem.graph, atoms)


def proven_invariant(problem, decoded, values: dict) -> str:
    """The facts `loop_kept(N, K).` of the top-level Loops' carried values proven to keep
    their shape and `loop_counter(N, K).` of those proven to count (\"\" when none is, or
    no Loop leaves one open); trial solves as needed. `values`: (tensor, index) -> the
    graph's solve's value there (as text)."""
    loops = [n for n in problem.graph.nodes if n.op == "Loop" and "body" in n.bodies]
    kept: list[str] = []
    for loop in loops:
        claims = [("kept", k) for k in _open(loop, decoded)] + \
            [("counter", k) for k in _counters(loop, decoded, values)]
        for _ in range(MAX_TRIALS if claims else 0):
            held = _trial(problem, loop, claims, "".join(kept))
            if not held:  # (a conflict, or no claim held: nothing left to try)
                break
            if held == claims:
                kept += [_fact(loop, kind, k) for kind, k in held]
                break
            claims = held
    return "".join(kept)


def _fact(loop, kind: str, k: int, assumed: bool = False) -> str:
    """Loop.lp's fact of a claim: loop_kept / loop_assumed (the shape), loop_counter /
    loop_counter_assumed (the count)."""
    name = {("kept", False): "loop_kept", ("kept", True): "loop_assumed",
            ("counter", False): "loop_counter", ("counter", True): "loop_counter_assumed"}
    return f"{name[kind, assumed]}({quote(loop.name)},{k})."


def _counters(loop, decoded, values: dict) -> list[int]:
    """The carried values (input numbers) of `loop` that may count its iterations: where a
    condition the body computes stops it and an output's size is open (a scan output's
    length, a grown list's or tensor's: Loop.lp's loop_runs), the integer scalars with a
    known initial value whose body input has none."""
    ins, outs = loop.bodies["body"]
    if len(loop.inputs) < 2 or not loop.inputs[1] or not outs or outs[0] == ins[1] or \
            not any(_open_size(decoded, y) for y in loop.outputs if y):
        return []
    out = []
    for k, v, b, _ in _carried(loop):
        initial = decoded.shapes.get(v)
        if initial is not None and initial.dims is not None and not initial.dims and \
                decoded.dtypes.get(v) in ("i32", "i64") and (v, 0) in values and \
                (b, 0) not in values:
            out.append(k)
    return out


def _carried(loop):
    """(K, initial value, body input, body output) of each carried value of `loop` that
    the graph gives (input K, body input K, body output K - 1)."""
    ins, outs = loop.bodies["body"]
    for k in range(2, min(len(loop.inputs), len(ins), len(outs) + 1)):
        if loop.inputs[k]:
            yield k, loop.inputs[k], ins[k], outs[k - 1]


def _open_size(decoded, t: str) -> bool:
    """Whether tensor t's shape, or sequence t's length, is not known in `decoded`."""
    if t in decoded.sequences:
        length = decoded.sequences[t]
        return length is None or has_fresh_name(length)
    shape = decoded.shapes.get(t)
    return shape is None or shape.dims is None or any(has_fresh_name(d) for d in shape.dims)


def loop_values(graph, atoms) -> dict:
    """(tensor, index) -> the value there in the solve `atoms` (as text) when a top-level
    Loop of `graph` has a condition input (it may have counters), else {}. Read before the
    solve is decoded: decoding lets its grounded control go."""
    if atoms.value_loader is None or not any(
            n.op == "Loop" and len(n.inputs) > 1 and n.inputs[1] for n in graph.nodes):
        return {}
    return atoms.value_loader()


def _counts(values: dict, loop, k: int) -> bool:
    """Whether counter k's body output is its input plus 1 in `values`."""
    ins, outs = loop.bodies["body"]
    got, given = values.get((outs[k - 1], 0)), values.get((ins[k], 0))
    if got is None or given is None:
        return False
    try:
        diff = symbol_to_expr(clingo.parse_term(got)) - symbol_to_expr(clingo.parse_term(given))
    except (RuntimeError, ValueError):
        return False
    return diff.is_int and diff == 1


def _open(loop, decoded) -> list[int]:
    """The carried values (input numbers) of `loop` whose body input and output the solve
    does not give one shape, with an initial value of known rank (a tensor)."""
    out = []
    for k, v, _, _ in _carried(loop):
        if v in decoded.sequences or v in decoded.optionals:
            continue
        initial = decoded.shapes.get(v)
        if initial is not None and initial.dims is not None and \
                not _keeps_shape(decoded, loop, k):
            out.append(k)
    return out


def _keeps_shape(decoded, loop, k: int) -> bool:
    """Whether carried value k's body output has its body input's shape in `decoded` (each
    axis the same expression, or the same fresh name: equal axes)."""
    ins, outs = loop.bodies["body"]
    b, o = decoded.shapes.get(ins[k]), decoded.shapes.get(outs[k - 1])
    return b is not None and o is not None and b.dims is not None and b.dims == o.dims


def _trial(problem, loop, claims: list[tuple], kept: str) -> list[tuple] | None:
    """The claims among `claims` that hold when all are assumed, in a solve of the loop and
    its ancestors: ("kept", k), value k's body output has the body input's shape when the
    body's input is assumed to have the initial value's; ("counter", k), its body output
    is its input plus 1 when the input is assumed to be the initial value plus the
    iteration number. None when that solve conflicts."""
    trial = trial_problem(problem, loop, kept + "".join(_fact(loop, kind, k, True)
                                                       for kind, k in claims))
    sub = trial.graph
    atoms, _ = trial.atoms()
    try:
        if atoms.conflicts:
            return None
        values = loop_values(sub, atoms) if any(kind == "counter" for kind, _ in claims) else {}
        decoded = decode(sub, atoms)
    finally:
        atoms.release_control()
    return [(kind, k) for kind, k in claims
            if (_keeps_shape(decoded, loop, k) if kind == "kept" else _counts(values, loop, k))]


def trial_problem(problem, loop, loop_facts: str):
    """The problem of `loop` and its ancestors (_ancestors) with Loop.lp's `loop_facts`: a
    trial's (also loop_unrolling.py's)."""
    trial = problem.of_part(_ancestors(problem.graph, loop))
    trial.loop_facts = loop_facts
    return trial


def _ancestors(graph, loop):
    """The graph of `loop` and the nodes it depends on: those making its inputs and the
    tensors its body reads, theirs, and so on (bodies of those nodes included); no outputs
    declared, no annotations beyond those tensors."""
    inside: dict[str, list] = {}  # top-level node -> its body nodes (nested ones too)
    for b in graph.body_nodes:
        if b.scope:
            inside.setdefault(b.scope[0][0], []).append(b)
    kept = graph.ancestors(
        [loop], reads=lambda n: [t for m in [n] + inside.get(n.name, []) for t in m.inputs])
    nodes = [n for n in graph.nodes if n.name in kept]
    body_nodes = [b for b in graph.body_nodes if b.scope and b.scope[0][0] in kept]
    # (annotations of the loop's ancestors only: not of its outputs nor of its body's
    # tensors, which would state what the trial is to show)
    made = {t for n in nodes if n is not loop for t in n.outputs if t}
    tensors = {t for n in nodes + body_nodes for t in n.inputs + n.outputs if t}
    return replace(graph, nodes=nodes, body_nodes=body_nodes, outputs={},
                   annotations={t: a for t, a in graph.annotations.items()
                                if t in made or t in graph.inputs},
                   initializers={t: i for t, i in graph.initializers.items() if t in tensors})
