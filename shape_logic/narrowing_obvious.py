"""Narrowing's trials whose outcome is plain without solving them (shape_logic/narrowing.py):
a declared output that only names what the graph gives is kept, one whose rank or a dim
is off by an integer contradicts it."""
from __future__ import annotations

from copy import copy

from .data_sizes import may_be_zero
from .shapes import bare_name
from .symbolic.bounds import bounds


class Obvious:
    """The trials whose outcome is plain without solving them. The graph alone gives each
    axis of an output a dim G; the declared dim D may use the declared outputs' own names
    (no input or annotation uses them), each standing for the G where a kept declaration
    first names it. A trial is
    - kept when no node reads the output, every axis's G is in the inputs' names, and D is
      one of those own names not named before (G at least 1: a name is a size of at least 1)
      or is G once they are replaced: the declaration names what the graph gives, and
      requires nothing of the inputs (no conflict, no narrowing, nothing borrowed: G is
      determined);
    - a contradiction when the ranks differ, or an axis's D (in the inputs' names once
      the own names are replaced) and G differ by a nonzero integer: however the solver
      binds the inputs' names (the same in both), the two stay that far apart where they
      meet, and @relate finds the conflict (not so for other conflicts @relate finds:
      `3*h*n = n` became `3*h*h + 24*h = h + 8`, unsolved, once the other axes bound n);
    - solved otherwise. A solved trial that is kept names its own names the same way; where
      it does not (a name given to an axis the graph leaves open), its names are taken:
      a later declaration using one is solved, not read as naming its axis anew."""

    def __init__(self, graph, alone, declared):
        self.graph, self.alone = graph, alone
        self.inputs = graph.input_symbols()
        elsewhere = _named_elsewhere(graph)
        self.own = {s for name in declared for d in graph.outputs[name].shape.dims
                    for s in d.symbols()
                    if graph.symbol_class.get(s) != 0 and s not in elsewhere}
        self.known: dict = {}  # own name -> the G it stands for
        # outputs that nodes read: there a name meets the graph's arithmetic before it is
        # bound (a broadcast of a declared [P_0, P_1] with [n, 1, h, 1] gave
        # `max(h, 3*h*n) = 3*h*n`, a narrowing the graph alone does not give)
        self.read = graph.read()
        self.taken: set = set()  # own names that a solved trial bound to what is not known

    def copy(self) -> Obvious:
        """The same judge, whose later verdicts leave this one's as they are."""
        twin = copy(self)
        twin.known, twin.taken = dict(self.known), set(self.taken)
        return twin

    def verdict(self, name) -> str | None:
        """"kept" (its own names then stand for its Gs), "contradiction", or None (to be
        solved)."""
        outcome, named = self._walk(name)
        if outcome == "kept":
            self.known.update(named)
        return outcome

    def learn(self, name) -> None:
        """The trial of `name` was solved and kept: its own names stand for its Gs, or
        are taken (tf2onnx's unique names for axes its converter left open, each output's
        trial then solved: every later trial was solved too while one such name made the
        judge blind, 14 solves of a tf.function zoo's 16 instead of 2)."""
        outcome, named = self._walk(name)
        if outcome == "kept":
            self.known.update(named)
        else:
            self.taken |= {s for d in self.graph.outputs[name].shape.dims
                           for s in d.symbols() if s in self.own and s not in self.known}

    def _walk(self, name) -> tuple[str | None, dict]:
        dims = self.graph.outputs[name].shape.dims
        got = self.alone.shapes.get(name)
        given = got.dims if got is not None else None
        if given is None:
            return None, {}
        if len(dims) != len(given):
            return "contradiction", {}
        outcome, named = "kept", {}
        for i, (d, g) in enumerate(zip(dims, given)):
            determined = g.symbol_set() <= self.inputs
            s = bare_name(d)
            if s in self.own and s not in self.known and s not in named and \
                    s not in self.taken:
                # a name stands for a size of at least 1 (`relate` cancels it): naming a
                # size the graph gives as 0 is a conflict, one that may be 0 (a Slice's
                # length) a requirement: both left to the solve
                if determined and not may_be_zero(g, self.alone, self.inputs, (name, i)):
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


def names_only(graph, declared, atoms, decoded) -> bool:
    """Whether the declared outputs only name what the graph gives: each declared dim is
    either a name of their own (no input or annotation has it) found at no other declared
    dim, where the graph gives the axis in the inputs' names as a size of at least 1
    whatever their values, or anything else that is the axis's only value in the solve
    (the graph computed it: a `c` computed there would have met a declared 2, `c = 2`);
    and no node reads the output. Such a declaration binds its own names and requires
    nothing of the inputs (a name meeting a size that may be 0 would: it is a size of at
    least 1), so what the model's solve requires of them the graph requires alone (a
    UNet's `4*(h//4) = h`, its mask declared [Convmask_dim_0, 2, Convmask_dim_2,
    Convmask_dim_3]): nothing to narrow, no solve without the declarations to tell.
    (`atoms`, `decoded`: the model's solve, which gives each axis the graph's value once
    the own name is bound to it.)"""
    inputs = graph.input_symbols()
    elsewhere = _named_elsewhere(graph)
    read = graph.read()
    seen: set = set()
    for name in declared:
        dims, got = graph.outputs[name].shape.dims, decoded.shapes.get(name)
        if name in read or got is None or got.dims is None or len(got.dims) != len(dims):
            return False
        for i, (d, g) in enumerate(zip(dims, got.dims)):
            s = bare_name(d)
            if s is None or s in inputs or s in elsewhere:  # (not a name of its own)
                if atoms.dims.get((name, i)) != {d}:
                    return False
            elif s in seen or not g.symbol_set() <= inputs or bounds(g)[0] < 1:
                return False
            else:
                seen.add(s)
    return True


def _named_elsewhere(graph) -> set[str]:
    """The names the inputs' and annotations' shapes use (a declared output's name found
    there is not its own)."""
    out: set = set()
    for info in list(graph.inputs.values()) + list(graph.annotations.values()):
        if info.shape is not None:
            out |= info.shape.symbols()
    return out


def name_labels(graph, alone, shared) -> dict:
    """The declared names, shared between dims, that each label one size the graph alone
    gives: a name that is a whole declared dim somewhere, the graph alone giving every such
    dim one value (a window's length `t12_fc1` beside its frame count `(2 - t12_fc1)//3 +
    2`, `_c1` and `(2 - _c1)//3 + 2` in the graph's terms): name -> that value. A declared
    dim that is a function of such names and equal to the graph's value once they are put
    in says nothing the graph does not (narrowing._borrowed)."""
    seen: dict = {}
    for t, info in graph.outputs.items():
        dims = info.shape.dims if info.shape is not None else None
        got = alone.shapes.get(t)
        if dims is None or got is None or got.dims is None or len(got.dims) != len(dims):
            continue
        for d, g in zip(dims, got.dims):
            name = bare_name(d)
            if name in shared:
                seen.setdefault(name, set()).add(g)
    return {n: next(iter(vs)) for n, vs in seen.items() if len(vs) == 1}
