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
gives a dim the graph leaves open through a name it shares with another declared dim
(the legacy exporter's merged names: only its naming says they are equal; checked
whenever the declarations share a name of their own, one solve more).
A trial whose outcome is plain from the graph's shapes alone (a declaration that only names
them, a rank or a dim off by an integer) is decided without its solve (_Obvious), and the
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
from copy import copy
from dataclasses import replace

from .decode import decode


def solves_ahead(problem) -> _Solves:
    """Narrowing's solves for `problem`, the one without the declared outputs started at
    once (beside the model's own solve) when it is sure to come: the declarations share
    names of their own (_shared_names), which without_narrowing always checks."""
    solves = _Solves(problem)
    graph = problem.graph
    declared = _declared(graph)
    if declared and _from_onnx(graph.source) and _shared_names(graph, declared):
        solves.start(())
    return solves


def without_narrowing(problem, atoms, decoded, funcs, solves):
    """(problem, atoms, decoded, funcs, warnings, set aside): the solve to go on with -
    this one, or the model's with only the declared outputs that agree with the graph -
    its warnings, and the outputs set aside: name -> (declared shape, why, check's status:
    "contradiction" or "set aside"). `solves`: solves_ahead(problem)."""
    graph = problem.graph
    as_is = (problem, atoms, decoded, funcs, [], {})
    declared = _declared(graph)
    if not declared or not _from_onnx(graph.source):
        return as_is
    shared = _shared_names(graph, declared)
    if not atoms.conflicts and not _narrowings(graph, decoded) and not shared:
        return as_is
    kept = solves.solved([])
    if kept[1].conflicts:  # the graph itself is inconsistent: the first answer stands
        solves.drop(kept)
        return as_is
    alone = kept[2]
    free = _narrowings(graph, alone)
    if not atoms.conflicts and set(_narrowings(graph, decoded)) <= set(free) and not any(
            _borrowed(graph, name, alone, decoded, shared) for name in declared):
        solves.drop(kept)
        return as_is  # the graph requires it all itself (a UNet's 4*(h//4) = h): one solve more
    kept_names: list[str] = []
    set_aside = {}  # output -> (its declared shape, why it is set aside, check's status)
    # a trial is solved only when Python cannot tell its outcome (_Obvious); `kept` is then
    # the solve of exactly the kept declarations, or None when one was kept without a solve
    obvious = _Obvious(graph, alone, declared)
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
            fixed = [text for text in _narrowings(graph, trial[2]) if text not in free]
            borrowed = _borrowed(graph, name, alone, trial[2], shared)
            if not fixed and not borrowed:
                solves.drop(kept)
                solves.cancel()  # (what runs ahead assumed the trial set aside)
                kept, kept_names = trial, kept_names + [name]
                obvious.learn(name)
                continue
            why = ("which would require " + " and ".join(fixed) if fixed else
                   "whose names, shared with another declared dim, would give "
                   + ", ".join(borrowed) + " that the graph leaves open")
            status = "set aside"
        solves.drop(trial)
        set_aside[name] = (str(graph.outputs[name].shape), why, status)
    if not set_aside:  # (the requirements came from the graph and declarations together)
        solves.drop(kept)
        return as_is
    if kept is None:
        kept = solves.solved(kept_names)  # (started ahead by the last trial)
    warnings = [f"graph output {name} is declared {declared_shape}, {why}; the graph gives "
                f"{kept[2].shapes.get(name)}, which is used (a declared output is advice: "
                "exporters declare the sizes they traced)"
                for name, (declared_shape, why, _) in set_aside.items()]
    return (*kept, warnings, set_aside)


def _declared(graph) -> list[str]:
    return [name for name, info in graph.outputs.items()
            if info.shape is not None and info.shape.dims]


def _as_declared(graph, outputs) -> bool:
    """The model with only `outputs`' shapes declared is the model as given (a trial of the
    last declaration, all before it kept: MobileNetV2's one output, whose name for the
    batch the legacy exporter gave its height too, was solved a third time: 0.5 s of 1.4)."""
    return all(info.shape is None for name, info in graph.outputs.items()
               if name not in outputs)


def _solved_with(problem, outputs, cancel=None):
    """(problem, atoms, decoded, funcs) of the model with only these outputs' shapes
    declared (the others' dtypes stay); `cancel`: see Problem.control."""
    graph = problem.graph
    undeclared = {name: replace(info, shape=None) for name, info in graph.outputs.items()
                  if name not in outputs}
    # (floors found with every declaration may rest on one: each solve finds its own)
    narrowed = replace(problem, graph=replace(graph, outputs={**graph.outputs, **undeclared}),
                       facts=None, timings=problem.timings, _sourced=None, floors={}, ceilings={})
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
        self.pool = None
        self.started: dict = {}  # outputs (a tuple) -> (future, cancel event)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=True)

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
        if self.pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(2, thread_name_prefix="shape-logic-narrowing")
        cancel = threading.Event()
        self.started[tuple(outputs)] = (
            self.pool.submit(_solved_with, self.problem, list(outputs), cancel), cancel)

    @staticmethod
    def drop(solved) -> None:
        """A solve no longer needed: its control is freed in the background."""
        if solved is not None:
            solved[1].release_control()


def _input_bindings(graph, decoded) -> dict:
    return {s: v for s, v in decoded.bindings.items() if graph.symbol_class.get(s) == 0}


def _narrowings(graph, decoded) -> list[str]:
    """What a solve requires of the inputs' symbols: bindings, ranges, and equations among
    them alone that it could not solve (each as text: `seq = 5`, `h in 223..224`,
    `3*h*w = b`). An equation that also names a declared output's own symbol (`m*n = k*l`
    for a declared `k*l`) names the dim; it requires nothing of the inputs."""
    inputs = {s for s, c in graph.symbol_class.items() if c == 0}
    out = [f"{s} = {v}" for s, v in _input_bindings(graph, decoded).items()]
    out += [f"{s} in {lo}..{hi}" for s, (lo, hi) in decoded.ranges.items() if s in inputs]
    out += [f"{a} = {b}" for a, b in decoded.met_constraints
            if (a.symbols() | b.symbols()) <= inputs]
    return out


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


def _borrowed(graph, name, alone, decoded, shared) -> list[str]:
    """The dims of output `name` that the graph alone leaves open (its rank too) and that
    the declaration names with a name it shares with another declared dim: an equality
    that only the exporter's naming says. As `axis = dim` where a solve then gives it in
    the inputs' symbols (the graph gives the other dim), as `axis equal to ..` where the
    other one is open too and the graph does not give the two one value."""
    dims, got = graph.outputs[name].shape.dims, decoded.shapes.get(name)
    if not shared or dims is None or got is None:
        return []
    inputs = {s for s, c in graph.symbol_class.items() if c == 0}
    out = []
    for i, (d, g) in enumerate(zip(dims, got.dims or ())):
        a = _given(graph, alone, name, i)
        if not d.symbols() & shared or (a is not None and a.symbols() <= inputs):
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


def _from_onnx(source) -> bool:
    """The graph was read from an ONNX model (a ModelProto or its GraphProto)."""
    return type(source).__name__ in ("ModelProto", "GraphProto")


class _Obvious:
    """The trials whose outcome is plain without solving them. The graph alone gives each
    axis of an output a dim G; the declared dim D may use the declared outputs' own names
    (no input or annotation uses them), each standing for the G where a kept declaration
    first names it. A trial is
    - kept when no node reads the output, every axis's G is in the inputs' names, and D is
      one of those own names not named before (G not 0: a name is a size of at least 1)
      or is G once they are replaced: the declaration names what the graph gives, and
      requires nothing of the inputs (no conflict, no narrowing, nothing borrowed: G is
      determined);
    - a contradiction when the ranks differ, or an axis's D (in the inputs' names once
      the own names are replaced) and G differ by a nonzero integer: however the solver
      binds the inputs' names (the same in both), the two stay that far apart where they
      meet, and @relate finds the conflict (not so for other conflicts @relate finds:
      `3*h*n = n` became `3*h*h + 24*h = h + 8`, unsolved, once the other axes bound n);
    - solved otherwise. A solved trial that is kept names its own names the same way; where
      it does not, every later trial is solved."""

    def __init__(self, graph, alone, declared):
        self.graph, self.alone = graph, alone
        self.inputs = {s for s, c in graph.symbol_class.items() if c == 0}
        elsewhere = set()
        for info in list(graph.inputs.values()) + list(graph.annotations.values()):
            if info.shape is not None:
                elsewhere |= info.shape.symbols()
        self.own = {s for name in declared for d in graph.outputs[name].shape.dims
                    for s in d.symbols()
                    if graph.symbol_class.get(s) != 0 and s not in elsewhere}
        self.known: dict = {}  # own name -> the G it stands for
        # outputs that nodes read: there a name meets the graph's arithmetic before it is
        # bound (a broadcast of a declared [P_0, P_1] with [n, 1, h, 1] gave
        # `max(h, 3*h*n) = 3*h*n`, a narrowing the graph alone does not give)
        self.read = {t for n in graph.nodes + graph.body_nodes for t in n.inputs if t}
        self.blind = False

    def copy(self) -> _Obvious:
        """The same judge, whose later verdicts leave this one's as they are."""
        twin = copy(self)
        twin.known = dict(self.known)
        return twin

    def verdict(self, name) -> str | None:
        """"kept" (its own names then stand for its Gs), "contradiction", or None (to be
        solved)."""
        if self.blind:
            return None
        outcome, named = self._walk(name)
        if outcome == "kept":
            self.known.update(named)
        return outcome

    def learn(self, name) -> None:
        """The trial of `name` was solved and kept: its own names stand for its Gs."""
        outcome, named = self._walk(name)
        if outcome == "kept":
            self.known.update(named)
        else:
            self.blind = True

    def _walk(self, name) -> tuple[str | None, dict]:
        dims = self.graph.outputs[name].shape.dims
        got = self.alone.shapes.get(name)
        given = got.dims if got is not None else None
        if given is None:
            return None, {}
        if len(dims) != len(given):
            return "contradiction", {}
        outcome, named = "kept", {}
        for d, g in zip(dims, given):
            determined = g.symbol_set() <= self.inputs
            atom = d.single_atom()
            s = atom.args[0] if atom is not None and atom.kind == "sym" else None
            if s in self.own and s not in self.known and s not in named:
                # a name stands for a size of at least 1 (`relate` cancels it): naming a
                # size the graph gives as 0 is a conflict, left to the solver
                if determined and not (g.is_int and g.value <= 0):
                    named[s] = g
                else:
                    outcome = None
                continue
            d = d.subs({**self.known, **named})
            if not (determined and d.symbol_set() <= self.inputs):
                outcome = None
            elif d != g:
                if (d - g).is_int:
                    return "contradiction", {}
                outcome = None
        if outcome == "kept" and name in self.read:
            outcome = None
        return outcome, named
