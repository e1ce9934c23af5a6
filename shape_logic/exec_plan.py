"""Closing a run's shapes (executor.py): the solution's dims with the symbols the inputs bind
replaced by their values, and where some stay open, solved again with the inputs' concrete
shapes (small integer inputs as constants); a symbol open after that is data-dependent."""
from __future__ import annotations

import dataclasses

from .exec_feeds import SMALL_INT_INPUT, closed_sequence
from .graph import Graph, TensorInfo, dtype_of_array
from .kernels.base import Seq
from .match_cast import ExecutionError, Expected, format_bindings
from .sequences import VARIES
from .shapes import Shape, has_fresh_name


@dataclasses.dataclass
class Plan:
    """The expected shapes for one signature of input shapes, after closing."""

    expected: dict  # tensor -> Expected
    open_symbols: set  # symbols no input decides: data-dependent
    checks: dict = dataclasses.field(default_factory=dict)  # exec_step.compile_checks
    # the steps whose outputs the input shapes decide (exec_shape_values.py): their ids,
    # found at the first run; their outputs' values, recorded by the first run that ends
    skips: set | None = None
    values: dict | None = None
    folded_checked: bool = False  # the constants folded at build time checked for good
    # what checking the inputs bound and left undecided (the same for the same signature)
    input_bindings: dict = dataclasses.field(default_factory=dict)
    input_unchecked: list = dataclasses.field(default_factory=list)


def closed_plan(graph: Graph, sol, rules, feeds: dict, bindings: dict) -> Plan:
    """The expected shapes of a run whose inputs are `feeds` and bound `bindings`: the
    solution `sol` with every symbol the inputs decide closed (solving again with their
    concrete shapes where some stay open); the symbols still open are data-dependent."""
    from .symbolic.expr import Expr

    subst = {s: Expr.const(v) for s, v in bindings.items()}
    dims = {}
    for t in graph.tensors():
        d = sol.dims(t)
        dims[t] = None if d is None else tuple(e.subs(subst) for e in d)
    # sequences' lengths likewise
    lengths = {t: e.subs(subst) for t in dims if (e := sol.length(t)) is not None}
    # solve again for these input shapes when the inputs bound symbols (the solver
    # then also checks what no single shape shows, such as broadcasting p with q) or
    # when dims stay open; a graph with concrete inputs is solved for them already
    if bindings or any(d is not None and not all(e.is_int for e in d)
                       for d in dims.values()):
        dims = _resolved(graph, sol, rules, feeds, bindings, dims, lengths)
    expected = {t: Expected.of(d, sol.dtype(t), sol.dims(t), lengths.get(t))
                for t, d in dims.items()}
    # the symbols of what this run computes: a body's tensors are its kernel's, each
    # run unchecked (kernels/bodies.py), so their names stay open whatever the run
    open_symbols = set()
    top = {*graph.inputs, *graph.initializers, *graph.outputs,
           *(t for n in graph.nodes for t in n.inputs + n.outputs if t)}
    for t in top:
        for e in (*(dims.get(t) or ()), *([lengths[t]] if t in lengths else [])):
            open_symbols |= e.symbols()
    open_symbols -= VARIES.symbols()  # (a sequence's axis its elements need not share)
    return Plan(expected, open_symbols)


def _resolved(graph: Graph, sol, rules, feeds: dict, bindings: dict, dims: dict,
              lengths: dict) -> dict:
    """Solve again with the inputs' concrete shapes; keep the more precise dim (and a
    sequence's length that solve gives as a number, into `lengths`)."""
    from .solver import solve

    closed = solve(closing_graph(graph, feeds), rules=rules)
    if closed.status == "error":
        below = sol.unmet(bindings)
        raise ExecutionError(f"{diagnostic_line(closed)} (with the inputs' shapes; "
                             f"bindings: {format_bindings(bindings)}"
                             + (f"; the graph requires {', '.join(below)})" if below
                                else ")"))
    for t in dims:
        n = closed.length(t)
        if n is not None and n.is_int:
            lengths[t] = n
    out = {}
    for t, d in dims.items():
        c = closed.dims(t)
        if d is None and c is not None:
            # (a rank only that solve gives: its fresh names are its own, another dim
            # than this solution's `_1`, so they get names of their own)
            out[t] = tuple(_closing_names(e) for e in c)
            continue
        if d is None or c is None or len(c) != len(d):
            out[t] = d
            continue
        # (not a fresh name of that solve: `_1` there is another dim than `_1` here,
        # which the bindings may hold)
        out[t] = tuple(a if a.is_int or has_fresh_name(b) else b for a, b in zip(d, c))
    return out


def closing_graph(graph: Graph, feeds: dict) -> Graph:
    """A copy of the graph whose inputs have the feeds' concrete shapes; small integer
    inputs become constants (shape computations need their values)."""
    inputs, inits, made = {}, dict(graph.initializers), []
    for name, info in graph.inputs.items():
        arr = feeds[name]
        if arr is None or type(arr) is Seq:  # (closed_sequence: an empty optional too)
            parts, construct = closed_sequence(name, info, arr)
            inputs.update(parts)
            made += construct
        elif arr.dtype.kind in "iu" and arr.size <= SMALL_INT_INPUT:
            inits[name] = TensorInfo(name, info.place, dtype_of_array(arr), Shape.of(arr.shape),
                                     arr)
        else:
            inputs[name] = dataclasses.replace(info, shape=Shape.of(arr.shape))
    return dataclasses.replace(graph, inputs=inputs, initializers=inits, nodes=made + graph.nodes)


def diagnostic_line(sol) -> str:
    d = sol.diagnostics[0]
    more = f" (and {len(sol.diagnostics) - 1} more)" if len(sol.diagnostics) > 1 else ""
    return f"shape error: {d.message}{more}"


def _closing_names(e):
    """e with the closing solve's fresh names `_k` as `_closing_k`: names of that solve,
    equal where it says so, none of the solution's own."""
    from .symbolic.expr import Expr

    fresh = {n: Expr.sym("_closing" + n) for n in e.symbols() if n.startswith("_")}
    return e.subs(fresh) if fresh else e
