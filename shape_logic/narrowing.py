"""Declared outputs of an ONNX model are advice: kept where they agree with the graph.

An exporter writes each graph output's shape as it traced it or as its own shape
inference named it, and the declarations can say more than the graph, or something
else:
- torch's dynamo exporter declares a bidirectional LSTM's output [batch, 5, 4] where the
  input says [batch, seq, 8] and the graph computes [batch, seq, 4] (the traced length);
- the legacy exporter declares [1, 1000] when only the input's batch was marked dynamic,
  and names the dims of outputs that dynamic_axes does not list after whichever tensor
  its shape inference merged them with: two F.pad outputs of different sizes declared
  with the same four names.
Runtimes take such declarations as advice (onnxruntime warns when an output differs
from its declaration and runs the model at any size), and so do we. Solved with every
declaration, a model usually holds as is (one solve, nothing more). When it does not - a
shape error, or a requirement on the inputs' symbols (a binding, a range, an equation) -
the graph is solved without the outputs' declared shapes (one solve more: if the graph
requires as much by itself, that is all), and the declarations are then taken back one
at a time in the model's order: each is kept unless, with the ones kept so far, it
contradicts the graph or requires of the input dims what the graph alone does not, or
gives a dim the graph leaves open a value in the inputs' terms (a traced size where the
data decides the size: NonZero's count declared 7 holds for one input only; a Resize's
size where float rounding decides its floor; checked whenever such a size is given so, or
a declared output is computed from an axis left open: data_sizes.py, one solve more), or
through a name it shares with another declared dim (the legacy exporter's merged names:
only its naming says they are equal; checked whenever the declarations share a name of
their own).
A trial whose outcome is plain from the graph's shapes alone (a declaration that only names
them, a rank or a dim off by an integer) is decided without its solve (Obvious), and the
kept declarations are then solved together once at the end, if any was set aside. A trial
with every declaration in force is the model's own solve, not made again. The solve that
follows a trial if it sets its declaration aside runs meanwhile in a second
thread (_Solves).
Those set aside are solved as undeclared (their rank too), each named in a warning with
what the graph gives. A shape error of the graph itself stays an error, and so does
what the graph requires (a Reshape to a constant size binds the batch). JSON graphs are
left alone: there an output annotation is written on purpose, and one that determines
an input is backward inference (INTERFACE section 2)."""
from __future__ import annotations

import threading
from dataclasses import replace

from .data_sizes import (Upstream, data_requirements, data_sizes_given, gives_more,
                         may_be_zero, open_name, open_upstream, zero_named)
from .decode import decode
from .narrowing_obvious import Obvious, name_labels, names_only
from .requirements import EQUATED, input_requirements, new_requirements, requirements_text
from .shapes import has_fresh_name


def narrowing_solves(problem) -> _Solves:
    """Narrowing's solves for `problem`. The one without the declared outputs, sure to
    come when the declarations share names of their own, is not started beside the
    model's own solve: two groundings of a graph new to the process create the same
    symbols at once, and clingo's global symbol table takes a write lock for each. On this
    2-core VM that took HF MobileNetV2's first solve from 0.41 s to 2.2 s (2.0 s of CPU,
    most of it waiting on that lock; from 0.33 to 0.27 s when solved again, its symbols
    made). The trials' solves, later, meet symbols made already and still run two at once."""
    return _Solves(problem)


def without_narrowing(problem, atoms, decoded, funcs, solves):
    """(problem, atoms, decoded, funcs, warnings, set aside): the solve to go on with -
    this one, or the model's with only the declared outputs that agree with the graph -
    its warnings, and the outputs set aside: name -> (declared shape, why, check's status:
    "contradiction" or "set aside"). `solves`: narrowing_solves(problem)."""
    graph = problem.graph
    as_is = (problem, atoms, decoded, funcs, [], {})
    declared = _declared(graph)
    if not declared or not graph.from_onnx:
        return as_is
    shared = _shared_names(graph, declared)
    related = _relates_names(graph, decoded)
    upstream = Upstream(graph, atoms, problem.rule_files)
    if not atoms.conflicts and not shared and not related and not atoms.open_ranks and \
            not data_sizes_given(upstream, decoded, declared) and not open_upstream(
            upstream, decoded, declared) and not zero_named(graph, decoded, declared) and \
            not data_requirements(graph, atoms, decoded) and (
            not input_requirements(graph, decoded, EQUATED) or
            names_only(graph, declared, atoms, decoded)):
        return as_is
    kept = solves.solved([])
    if kept[1].conflicts:  # the graph itself is inconsistent: the first answer stands
        solves.drop(kept)
        return as_is
    solves.floors = dict(kept[0].floors)
    alone, alone_atoms = kept[2], kept[1]
    labels = name_labels(graph, alone, shared)  # (once: each declared output reads it)
    if not atoms.conflicts and not related and not new_requirements(graph, decoded, alone) \
            and not data_requirements(graph, atoms, decoded, alone_atoms, alone) \
            and not any(_borrowed(graph, name, alone, decoded, shared, labels) or
                        _filled(graph, name, alone, decoded) for name in declared):
        solves.drop(kept)
        return as_is  # the graph requires it all itself (a UNet's 4*(h//4) = h): one solve more
    kept_names: list[str] = []
    set_aside = {}  # output -> (its declared shape, why it is set aside, check's status)
    # a trial is solved only when Python cannot tell its outcome (Obvious); `kept` is then
    # the solve of exactly the kept declarations, or None when one was kept without a solve
    obvious = Obvious(graph, alone, declared)
    for i, name in enumerate(declared):
        verdict = obvious.verdict(name)
        if verdict == "kept":
            solves.drop(kept)
            kept, kept_names = None, kept_names + [name]
            continue
        if verdict == "contradiction":
            set_aside[name] = (str(graph.outputs[name].shape), "which contradicts it",
                               "contradiction")
            continue
        if _as_declared(graph, kept_names + [name]):
            # every declaration in force: the trial is the model's own solve, done already
            trial = as_is[:4]
        else:  # meanwhile, the solve that follows if this trial sets its declaration aside
            trial = solves.solved(kept_names + [name], _next_solve(
                obvious, declared[i + 1:], kept_names, kept is None))
        if trial[1].conflicts:
            why, status = "which contradicts it", "contradiction"
        else:
            fixed = new_requirements(graph, trial[2], alone) + data_requirements(
                graph, trial[1], trial[2], alone_atoms, alone)
            borrowed = _borrowed(graph, name, alone, trial[2], shared, labels)
            filled = [] if borrowed else _filled(graph, name, alone, trial[2])
            if not fixed and not borrowed and not filled:
                solves.drop(kept)
                solves.cancel()  # (what runs ahead assumed the trial set aside)
                kept, kept_names = trial, kept_names + [name]
                obvious.learn(name)
                continue
            why = ("which would require " + requirements_text(fixed) if fixed else
                   "whose names, shared with another declared dim, would give "
                   + ", ".join(borrowed) + " that the graph leaves open" if borrowed else
                   "which would give " + ", ".join(filled) + " that the graph leaves open")
            status = "set aside"
        solves.drop(trial)
        set_aside[name] = (str(graph.outputs[name].shape), why, status)
    if not set_aside:  # (the requirements came from the graph and declarations together)
        solves.drop(kept)
        return as_is
    if kept is None:
        kept = solves.solved(kept_names)  # (started ahead by the last trial)
    warnings = [f"graph output {name} is declared {declared_shape}, {why}; the graph gives "
                f"{_printed(kept[2], name)}, which is used (a declared output "
                "is advice: exporters declare the sizes they traced)"
                for name, (declared_shape, why, _) in set_aside.items()]
    return (*kept, warnings, set_aside)


def _printed(decoded, name: str) -> str:
    """The decoded shape of `name` with its fresh names as the solution prints them (a
    count's `_c1`: decode._renumber), or `no rank`."""
    shape = decoded.shapes.get(name)
    if shape is None:
        return "no rank"
    if shape.dims is None or not decoded.rename:
        return str(shape)
    from .symbolic.expr import Expr

    rename = {k: Expr.sym(v) for k, v in decoded.rename.items()}
    return "[" + ", ".join(str(d.subs(rename)) for d in shape.dims) + "]"


def _declared(graph) -> list[str]:
    """The outputs declared with a shape: a scalar's too (`shape {}` in ONNX is rank 0),
    which a rank-1 graph output contradicts like any other rank."""
    return [name for name, info in graph.outputs.items()
            if info.shape is not None and info.shape.dims is not None]


def _as_declared(graph, outputs) -> bool:
    """The model with only `outputs`' shapes declared is the model as given (a trial of the
    last declaration, all before it kept: MobileNetV2's one output, whose name for the
    batch the legacy exporter gave its height too, was solved a third time: 0.5 s of 1.4)."""
    return all(info.shape is None for name, info in graph.outputs.items()
               if name not in outputs)


def _solved_with(problem, outputs, cancel=None, floors: dict | None = None):
    """(problem, atoms, decoded, funcs) of the model with only these outputs' shapes
    declared (the others' dtypes stay); `cancel`: see Problem.control. `floors`: those the
    graph requires without any declaration (its solve without them found them), which
    every trial's runs meet too: its solve starts under them instead of finding them again
    in a second round (a tf.function zoo's seven trials 14 groundings to 7)."""
    graph = problem.graph
    undeclared = {name: replace(info, shape=None) for name, info in graph.outputs.items()
                  if name not in outputs}
    # (floors found with every declaration may rest on one: each solve finds its own, and
    # says itself whether its conflict shows under them only: floor_rounds._conflicted)
    narrowed = replace(problem, graph=replace(graph, outputs={**graph.outputs, **undeclared}),
                       facts=None, timings=problem.timings, _sourced=None, floors={}, ceilings={},
                       floors_everywhere=False, prefix=floors or problem.prefix)
    atoms, funcs = narrowed.atoms(cancel=cancel)
    return narrowed, atoms, decode(narrowed.graph, atoms), funcs


def _next_solve(obvious, later, kept_names, kept_unsolved) -> tuple | None:
    """The outputs (a tuple) of the solve that follows a trial that sets its declaration
    aside: the next trial that Python cannot decide (the later declarations `later` walked
    on a copy of `obvious`), else the final solve of the kept ones if one is kept unsolved;
    None if no solve follows."""
    walk, names = obvious.copy(), list(kept_names)
    for name in later:
        verdict = walk.verdict(name)
        if verdict == "kept":
            names, kept_unsolved = names + [name], True
        elif verdict is None:
            return (*names, name)
    return tuple(names) if kept_unsolved else None


class _Solves:
    """Narrowing's solves, in two threads: while a trial is solved, so is the solve that
    follows if the trial sets its declaration aside (clingo grounds without Python's lock:
    two solves side by side take ~0.6 of their time in turn). When the trial keeps its
    declaration instead, the one ahead is cancelled at its next computation
    (Functions.cancel) and thrown away. Each solve used is the one the sequential order
    makes, whichever thread runs it."""

    def __init__(self, problem):
        self.problem = problem
        self.futures: list = []  # every solve started (each is waited for at the end)
        self.started: dict = {}  # outputs (a tuple) -> (future, cancel event)
        self.floors: dict = {}  # those of the solve without the declarations, once made

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cancel()
        if self.futures:
            from concurrent.futures import wait

            wait(self.futures)

    def solved(self, outputs: list, then: tuple | None = None):
        """The solve of `outputs`, with the solve of `then` started meanwhile."""
        for other in [key for key in self.started if key not in (tuple(outputs), then)]:
            self.cancel(other)
        self.start(outputs)
        if then is not None:
            self.start(then)
        future, _ = self.started.pop(tuple(outputs))
        return future.result()

    def cancel(self, outputs=None) -> None:
        """Give up the solve of `outputs` started ahead (None: every one)."""
        for key in list(self.started) if outputs is None else [tuple(outputs)]:
            future, cancel = self.started.pop(key)
            cancel.set()
            future.add_done_callback(lambda f: f.exception() or self.drop(f.result()))

    def start(self, outputs) -> None:
        """Start the solve of `outputs` in a second thread."""
        if tuple(outputs) in self.started:
            return
        cancel = threading.Event()
        future = _pool().submit(_solved_with, self.problem, list(outputs), cancel,
                                self.floors)
        self.futures.append(future)
        self.started[tuple(outputs)] = (future, cancel)

    @staticmethod
    def drop(solved) -> None:
        """A solve no longer needed: its control is freed in the background."""
        if solved is not None:
            solved[1].release_control()


_POOL: list = []  # the process's pool of narrowing's two threads, once made
_POOL_MADE = threading.Lock()


def _pool():
    """The threads narrowing's solves run in, made once per process: starting a thread
    waits for it to take Python's lock, which a solve running in the other one holds for up
    to the switch interval (5 ms): a pool per model cost the F.pad model ~11 ms of its
    ~130 ms solve in its 8 starts. (Idle, the threads wait; at exit they are joined.)"""
    with _POOL_MADE:
        if not _POOL:
            from concurrent.futures import ThreadPoolExecutor

            _POOL.append(ThreadPoolExecutor(2, thread_name_prefix="shape-logic-narrowing"))
        return _POOL[0]


def _shared_names(graph, declared) -> set[str]:
    """The declared outputs' own names (not the inputs') at more than one declared dim:
    the legacy exporter names the dims of outputs that dynamic_axes does not list after
    whatever its shape inference merged them with (three F.interpolate outputs of
    different sizes, all [Resize11_dim_0, 3, Resize11_dim_2, Resize11_dim_3])."""
    seen, shared = set(), set()
    for name in declared:
        for d in graph.outputs[name].shape.dims or ():
            for s in d.symbols():
                if graph.symbol_class.get(s) != 0:
                    (shared if s in seen else seen).add(s)
    return shared


def _relates_names(graph, decoded) -> bool:
    """Whether the solve binds or relates names other than the inputs' to expressions of
    each other: two declarations [2*k] and [c] of one count the graph leaves open print it
    c, with k = c//2 (c even), which only the declarations say."""
    inputs = graph.input_symbols()
    own = {s for s, c in graph.symbol_class.items() if c == 1}
    # (a declared name bound to the inputs' terms names a size the graph gives)
    return any(s in own and not e.symbols() <= inputs and not open_name(e, inputs)
               for s, e in decoded.bindings.items()) or any(
        (a - b).symbols() & own for a, b in decoded.met_constraints)


def _filled(graph, name, alone, decoded) -> list[str]:
    """The dims of output `name` that the graph alone leaves open (a fresh name: a size the
    data decides, or one the rules cannot compute) and that a solve with its declaration
    gives in the inputs' terms, or where the graph gives a bare fresh name, as any
    expression (`2*k` says the size is even), as `axis i = dim`: an exporter's traced size
    holds for the traced input only. A name of its own for the dim says nothing more."""
    got, dims = decoded.shapes.get(name), graph.outputs[name].shape.dims
    if got is None or got.dims is None or len(got.dims) != len(dims):
        return []
    before = alone.shapes.get(name)
    if alone.open_ranks and (before is None or before.dims is None):
        # a rank the inputs' sizes decide (a Squeeze without axes of [b, s] is [b] where s
        # is 1), which the graph alone leaves open: a traced rank holds at the traced sizes
        # only (open_rank, rules/Squeeze.lp)
        return [f"rank {len(dims)}"]
    inputs = graph.input_symbols()
    read = name in graph.read()
    out = []
    for i, (d, g) in enumerate(zip(dims, got.dims)):
        a = _given(graph, alone, name, i)
        # (a bare name of its own, or `?`, says nothing: where the solve gives the dim all
        # the same, the kept declarations before it do - a Conv's width named S_2 is >= 1,
        # and its broadcast with the input's width s2 is then s2. But a name is a size of at
        # least 1, and a size the data decides may be 0: met by the graph's arithmetic (a
        # node reads the output), a Slice [-1:1] of a Compress's rows named S_0 gave
        # max(0, 2 - S_0), 2 where no row is selected. So may a size the graph computes,
        # and its name, bound to it, meets the arithmetic wherever the axis goes: a Slice's
        # length L named S_0 in a Squeeze of it that no node reads made a Reshape to L give
        # [L, 1], [1, 0] where L is 0. (`?` is no name: facts.py writes no dim for it)
        if open_name(d, inputs):
            named = not has_fresh_name(d) and (read or not open_name(a, inputs) and
                                               gives_more(graph, alone, decoded))
            if a is not None and named and may_be_zero(a, alone, inputs, (name, i)):
                whose = "the data's" if open_name(a, inputs) else "the graph's"
                out.append(f"axis {i} = {g} (a name is a size of at least 1, {whose} may "
                           "be 0)")
            continue
        if a is not None and not a.symbols() <= inputs and (
                g.symbols() <= inputs or open_name(a, inputs) and not open_name(g, inputs)):
            out.append(f"axis {i} = {g}")
    return out


def _borrowed(graph, name, alone, decoded, shared, labels: dict) -> list[str]:
    """The dims of output `name` that the graph alone leaves open (its rank too) and that
    the declaration names with a name it shares with another declared dim: an equality
    that only the exporter's naming says. As `axis = dim` where a solve then gives it in
    the inputs' symbols (the graph gives the other dim), as `axis equal to ..` where the
    other one is open too and the graph does not give the two one value (`labels`:
    name_labels, the shared names that label one size the graph alone gives)."""
    dims, got = graph.outputs[name].shape.dims, decoded.shapes.get(name)
    if not shared or dims is None or got is None:
        return []
    inputs = graph.input_symbols()
    out = []
    for i, (d, g) in enumerate(zip(dims, got.dims or ())):
        a = _given(graph, alone, name, i)
        if not d.symbols() & shared or (a is not None and a.symbols() <= inputs) or (
                a is not None and d.symbols() & shared <= labels.keys() and
                d.subs(labels) == a):  # (names that only label the graph's sizes)
            continue
        if g.symbols() <= inputs:
            out.append(f"axis {i} = {g}")
        else:  # both open: the name says they are equal, which the graph need not give
            out += [f"axis {i} equal to {other}'s axis {j}" for other, j in
                    _namesakes(graph, name, i, d.symbols() & shared, alone)]
    return out


def _namesakes(graph, name, i, names, alone) -> list:
    """The other declared dims (output, axis) that share one of `names` with axis i of
    output `name` and that the graph alone does not give the same value (a scripted loop's
    stacked and joined outputs [C_0, C_1, C_2] and [C_0, C_1]: 2 and 10 at run time)."""
    mine = _given(graph, alone, name, i)
    out = []
    for other, info in graph.outputs.items():
        if info.shape is None or info.shape.dims is None:
            continue
        for j, d in enumerate(info.shape.dims):
            if (other, j) != (name, i) and d.symbols() & names and (
                    mine is None or _given(graph, alone, other, j) != mine):
                out.append((other, j))
    return out


def _given(graph, alone, t: str, k: int):
    """What the graph alone gives axis k of declared output t (None: nothing, or a rank
    other than the declaration's)."""
    shape = alone.shapes.get(t)
    ok = shape is not None and shape.dims is not None and \
        len(shape.dims) == len(graph.outputs[t].shape.dims)
    return shape.dims[k] if ok else None


